import AtomicFiles
import Digest
import Foundation
import MediaFormat
import ProjectFile
import ReelApplication
import ServiceLifecycle
import Synchronization

/// The workers that render queued renders, each one render at a time in a child `reel render`
/// process of `program` (this program), so a crash in a decoder is the child's and the node
/// goes on serving, and the bytes are `reel render`'s: into `outputs/ID.EXT`, with the segment
/// cache shared by every render (and by every node, when nodes share the data folder). A
/// service of the `ServiceGroup`: on graceful shutdown it takes no more renders, gives the
/// running ones `grace` to finish, then stops them and puts them back in the queue (their
/// segments stay in the cache for the next start), and ends.
final class RenderWorkers: Service, Sendable {
    private let store: RenderStore
    private let workspace: Workspace
    private let folders: ServiceFolders
    private let count: Int
    /// This node's name: the owner of the leases its workers take.
    private let node: String
    /// How long a lease lasts without a heartbeat; a worker renews it twice a second.
    private let lease: TimeInterval
    private let grace: TimeInterval
    /// The program each render runs in (`reel render`'s arguments): this one, unless told.
    private let program: URL
    /// The executor the heartbeats prefer (`ServiceConfiguration.executor`).
    private let executor: (any TaskExecutor)?
    private let log: @Sendable (String) -> Void
    /// A failed render's `error` names no server folder.
    private let paths: ServerPaths
    private let state = Mutex(State())

    private struct State {
        var stopping = false
        /// The grace time is over (or the group was cancelled): running children are stopped.
        var stoppingChildren = false
        var running: [String: ChildProcess] = [:]
        /// Stops the children once the grace time is over.
        var graceTimer: Task<Void, Never>?
    }

    init(store: RenderStore, workspace: Workspace, folders: ServiceFolders, count: Int, node: String, lease: TimeInterval = 30, grace: TimeInterval = 30,
         program: URL = ChildProcess.thisProgram, executor: (any TaskExecutor)? = nil, log: @escaping @Sendable (String) -> Void) {
        self.store = store
        self.workspace = workspace
        self.folders = folders
        self.count = count
        self.node = node
        self.lease = lease
        self.grace = grace
        self.program = program
        self.executor = executor
        self.log = log
        paths = ServerPaths(folders: folders, workspace: workspace)
    }

    func run() async throws {
        await withTaskCancellationHandler {
            await withGracefulShutdownHandler {
                await withTaskGroup(of: Void.self) { workers in
                    for _ in 0..<count { workers.addTask { await self.work() } }
                }
            } onGracefulShutdown: {
                let timer = Task {
                    try? await Task.sleep(for: .seconds(self.grace))
                    if !Task.isCancelled { self.stopChildren() }
                }
                self.state.withLock { ($0.stopping, $0.graceTimer) = (true, timer) }
            }
        } onCancel: {
            self.state.withLock { $0.stopping = true }
            self.stopChildren()
        }
        state.withLock { $0.graceTimer?.cancel() }
    }

    private var stopping: Bool { state.withLock { $0.stopping } }

    /// Stops every running child, and those that start from now on.
    private func stopChildren() {
        for child in state.withLock({ state in
            state.stoppingChildren = true
            return Array(state.running.values)
        }) { child.stop(patience: patience) }
    }

    /// How long a child asked to stop may take before it is killed: well inside half a lease,
    /// so a render whose lease is lost is over before another node may take it.
    private var patience: TimeInterval { min(10, lease / 4) }

    private func work() async {
        while !stopping {
            do {
                guard let render = try await store.claimNext(owner: node, lease: lease) else {
                    try? await Task.sleep(for: .milliseconds(200))
                    continue
                }
                log("\(render.id): rendering on \(node)")
                let ended = await perform(render)
                if try await store.finish(ended, owner: node, delivery: ended.status.isFinished ? Delivery(telling: ended) : nil) {
                    log("\(render.id): \(ended.status.rawValue)")
                } else {
                    log("\(render.id): its lease ran out before it ended; another node renders it")
                }
            } catch {
                log("the job store failed: \(error); trying again in a second")
                try? await Task.sleep(for: .seconds(1))
            }
        }
    }

    /// Renders `render`, returning it as it ended: done with its output, failed with what went
    /// wrong, cancelled, or queued again when the service stops or loses the lease before it
    /// ends. A child that crashes (killed by a signal it did not ask for) is run once more; a
    /// second crash fails the render.
    private func perform(_ render: RenderRecord) async -> RenderRecord {
        var render = render
        let order: RenderOrder
        do {
            order = try RenderOrder.read(render)
        } catch {
            return ended(render, .failed, error: ErrorText.message(for: error))
        }
        let output = folders.output(of: render.id, container: order.settings.container)
        let beat = Heartbeat(store: store, id: render.id, owner: node, lease: lease)
        await waitForEarlierChild(writing: output, beat: beat)
        var firstCrash: String?
        while true {
            let outcome: ChildProcess.Outcome
            do {
                outcome = try await renderInChild(order, output: output, id: render.id, beat: beat)
            } catch {
                return ended(render, .failed, error: "\(error)")
            }
            switch outcome.ending {
            case .exited(0):
                return done(render, output: output, container: order.settings.container, beat: beat)
            case _ where beat.leaseLost || stopping:
                render.status = .queued
                (render.leaseUntil, render.leaseOwner) = (nil, nil)
                log("\(render.id): \(beat.leaseLost ? "stopped: its lease could not be renewed" : "stopped with the service"); it will render again")
                return render
            case _ where beat.cancelRequested:
                return ended(render, .cancelled)
            case .killed, .exited(130):
                // Not asked to stop: a crash, or a signal from outside the service. The node goes
                // on; the render is tried once more.
                let crash = "reel render \(outcome.ending)" + Self.tail(outcome.standardError)
                guard let firstCrash else {
                    firstCrash = crash
                    log("\(render.id): \(crash); rendering it once more")
                    continue
                }
                return ended(render, .failed, error: "\(firstCrash); rendered once more, \(crash): the render crashes on this project or its media "
                             + "(this node goes on rendering others); look at its media files, then post it anew")
            default:
                let message = outcome.standardError.trimmingCharacters(in: .whitespacesAndNewlines)
                return ended(render, .failed, error: message.isEmpty ? "reel render \(outcome.ending)" : message)
            }
        }
    }

    /// Runs `order` in a child until it ends, renewing the lease with its progress (and
    /// stopping it when the lease is lost or a cancel is asked for).
    private func renderInChild(_ order: RenderOrder, output: String, id: String, beat: Heartbeat) async throws -> ChildProcess.Outcome {
        let file = PostedProjectFile(order.document)
        let render = ChildRender(project: file.name, threads: 1, segmentJobs: 1, preset: order.settings.preset?.preset, parts: folders.cache,
                                 mediaRoots: workspace.mediaRoots?.folders ?? [], stopsWithParent: true, inScratch: true)
        let remote = workspace.remote.settings
        // The remote media were fetched into the cache when the render was posted: the child
        // reads them there (`--offline`).
        let child = try ChildProcess("reel render", executable: program,
                                     environment: ["REEL_MEDIA_CACHE_DIR": remote.folder, "REEL_MEDIA_CACHE_MAX": String(remote.maxBytes)],
                                     inScratch: true, keepsInputOpen: true, arguments: { scratch in
            let path = scratch.appendingPathComponent(file.name)
            try FileManager.default.createDirectory(at: path.deletingLastPathComponent(), withIntermediateDirectories: true)
            try file.text.write(to: path, atomically: false, encoding: .utf8)
            return try render.arguments(output: output, rendition: order.settings.rendition ?? Renditions.names(in: order.document.root).first,
                                        values: order.settings.overrides, progress: .json, scratch: scratch)
        }, lines: { line in
            if let line = ChildRenderLine(line) { beat.record(line) }
        })
        let stopNow = state.withLock { state in
            state.running[id] = child
            return state.stoppingChildren
        }
        if stopNow { child.stop(patience: patience) }
        let beating = Task(executorPreference: executor) { [self] in
            while !Task.isCancelled {
                try? await Task.sleep(for: .milliseconds(500))
                if !Task.isCancelled, await beat.beat() { child.stop(patience: patience) }
            }
        }
        let outcome = await child.outcome()
        beating.cancel()
        state.withLock { $0.running[id] = nil }
        return outcome
    }

    /// Returns once no process writes `output`, or after a lease's length. A node that died
    /// holding this render (its lease ran out, so this node took it) leaves its child stopping:
    /// the child stops at its next frame once its standard input ends and removes its partial
    /// file, which it holds locked until then, and a new child would be refused meanwhile.
    /// The lease is renewed while it waits; a render that should stop meanwhile (cancelled,
    /// taken by another node) goes on to its child, which is stopped at its first heartbeat.
    private func waitForEarlierChild(writing output: String, beat: Heartbeat) async {
        let deadline = ContinuousClock.now + .seconds(max(lease, 10))
        while PartialFile.isBeingWritten(output), ContinuousClock.now < deadline {
            if await beat.beat() { return }
            try? await Task.sleep(for: .milliseconds(500))
        }
    }

    /// `render` done: its output's size and digest, and what it did with its segments.
    private func done(_ render: RenderRecord, output: String, container: Container, beat: Heartbeat) -> RenderRecord {
        var render = render
        do {
            render.outputSHA256 = try SHA256.hexDigest(ofFileAt: output)
        } catch {
            return ended(render, .failed, error: "reel render ended without its output: \(error)")
        }
        render.progress = 1
        (render.segmentsRendered, render.segmentsReused) = beat.segments
        render.segmentsTotal = render.segmentsRendered + render.segmentsReused
        render.outputPath = output
        render.outputBytes = (try? FileManager.default.attributesOfItem(atPath: output)[.size] as? Int64) ?? nil
        render.contentType = container.mediaType
        return ended(render, .done)
    }

    private func ended(_ render: RenderRecord, _ status: RenderStatus, error: String? = nil) -> RenderRecord {
        var render = render
        (render.status, render.error) = (status, error.map(paths.hidden(in:)))
        render.finishedAt = Date().timeIntervalSince1970
        (render.leaseUntil, render.leaseOwner) = (nil, nil)
        return render
    }

    /// `: ` and the end of what a crashed child wrote on standard error (a Swift runtime error's
    /// message, say), or nothing.
    private static func tail(_ standardError: String) -> String {
        let text = standardError.trimmingCharacters(in: .whitespacesAndNewlines)
        return text.isEmpty ? "" : ": " + String(text.suffix(2000))
    }
}

/// Renews a render's lease twice a second while its child renders, recording the progress the
/// child reports; says when the render should stop: a cancel was asked for, another node holds
/// the render now, or the lease could not be renewed for half its length (the node stops
/// before the lease runs out, so the render never runs on two nodes at once).
private final class Heartbeat: Sendable {
    private let store: RenderStore
    private let id: String
    private let owner: String
    private let lease: TimeInterval
    private let state: Mutex<State>

    private struct State {
        var lastRenewal: TimeInterval
        var leaseLost = false
        var cancelRequested = false
        var progress = 0.0
        var segmentsTotal = 0
        var segments = (rendered: 0, reused: 0)
    }

    init(store: RenderStore, id: String, owner: String, lease: TimeInterval) {
        (self.store, self.id, self.owner, self.lease) = (store, id, owner, lease)
        state = Mutex(State(lastRenewal: ProcessInfo.processInfo.systemUptime))
    }

    var leaseLost: Bool { state.withLock { $0.leaseLost } }
    var cancelRequested: Bool { state.withLock { $0.cancelRequested } }
    /// What the child said it did with its segments at its end.
    var segments: (rendered: Int, reused: Int) { state.withLock { $0.segments } }

    /// A line of the child's.
    func record(_ line: ChildRenderLine) {
        state.withLock { state in
            switch line {
            case .progress(let frame, let frames, let segments):
                state.progress = frames > 0 ? min(1, Double(frame) / Double(frames)) : 0
                state.segmentsTotal = segments ?? state.segmentsTotal
            case .finished(let rendered, let reused):
                state.segments = (rendered, reused)
            }
        }
    }

    /// Renews the lease with the progress so far. True when the render should stop.
    func beat() async -> Bool {
        let now = ProcessInfo.processInfo.systemUptime
        let (progress, segments) = state.withLock { ($0.progress, $0.segmentsTotal) }
        do {
            let held = try await store.heartbeat(id, owner: owner, progress: progress, segmentsTotal: segments, lease: lease)
            return state.withLock { state in
                state.lastRenewal = now
                state.leaseLost = !held.held
                state.cancelRequested = held.cancelRequested
                return !held.held || held.cancelRequested
            }
        } catch {
            return state.withLock { state in
                state.leaseLost = state.leaseLost || now - state.lastRenewal > lease / 2
                return state.leaseLost
            }
        }
    }
}
