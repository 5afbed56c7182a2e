import Digest
import Foundation
import MediaIO
import ProjectFile
import ReelApplication
import RenderEngine
import Synchronization

/// The threads that render queued renders, each one render at a time, through the application
/// layer as `reel render` does (so the bytes are the same), into `outputs/ID.EXT` with the
/// segment cache shared by every render (and by every node, when nodes share the data folder).
final class RenderWorkers: Sendable {
    private let store: RenderStore
    private let workspace: Workspace
    private let folders: ServiceFolders
    private let count: Int
    /// This node's name: the owner of the leases its workers take.
    private let node: String
    /// How long a lease lasts without a heartbeat; a worker renews it twice a second.
    private let lease: TimeInterval
    private let log: @Sendable (String) -> Void
    private let state = Mutex(State())

    private struct State {
        var stopping = false
        var running: [String: ExportSession] = [:]
        var threads = 0
    }

    init(store: RenderStore, workspace: Workspace, folders: ServiceFolders, count: Int, node: String, lease: TimeInterval = 30,
         log: @escaping @Sendable (String) -> Void) {
        self.store = store
        self.workspace = workspace
        self.folders = folders
        self.count = count
        self.node = node
        self.lease = lease
        self.log = log
    }

    func start() {
        for n in 0..<count {
            state.withLock { $0.threads += 1 }
            let thread = Thread { [self] in
                work()
                state.withLock { $0.threads -= 1 }
            }
            thread.name = "reel-render-\(n)"
            thread.start()
        }
    }

    /// Takes no more renders; waits up to `grace` for the running ones, then cancels them and
    /// puts them back in the queue (their segments stay in the cache for the next start).
    func stop(grace: TimeInterval) {
        state.withLock { $0.stopping = true }
        let deadline = Date().addingTimeInterval(grace)
        while state.withLock({ $0.threads > 0 }), Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
        for session in state.withLock({ Array($0.running.values) }) { session.cancel() }
        while state.withLock({ $0.threads > 0 }) { Thread.sleep(forTimeInterval: 0.05) }
    }

    private var stopping: Bool { state.withLock { $0.stopping } }

    private func work() {
        while !stopping {
            do {
                guard let render = try waitFor(on: ServerExecutor.shared, { [store, node, lease] in try await store.claimNext(owner: node, lease: lease) }) else {
                    Thread.sleep(forTimeInterval: 0.2)
                    continue
                }
                log("\(render.id): rendering on \(node)")
                let ended = perform(render)
                // A render keeps freed memory in the heaps for its next encoder (HeapPolicy); a
                // service that renders for months gives it back between renders, so its resident
                // memory stays flat however many renders it makes.
                HeapPolicy.trim()
                if try waitFor(on: ServerExecutor.shared, { [store, node] in try await store.finish(ended, owner: node, delivery: ended.status.isFinished ? Delivery(telling: ended) : nil) }) {
                    log("\(render.id): \(ended.status.rawValue)")
                } else {
                    log("\(render.id): its lease ran out before it ended; another node renders it")
                }
            } catch {
                log("the job store failed: \(error); trying again in a second")
                Thread.sleep(forTimeInterval: 1)
            }
        }
    }

    /// Renders `render`, returning it as it ended: done with its output, failed with what went
    /// wrong, cancelled, or queued again when the service stops or loses the lease before it ends.
    private func perform(_ render: RenderRecord) -> RenderRecord {
        var render = render
        let beat = Heartbeat(store: store, id: render.id, owner: node, lease: lease)
        do {
            let order = try RenderOrder.read(render.request)
            let output = folders.output(of: render.id, container: order.container)
            let request = RenderRequest(projectPath: order.document.source.name, document: order.document,
                                        vars: VarInputs(overrides: order.vars, sources: [order.body], rendition: order.rendition),
                                        varsFile: nil, output: output, range: nil, audioOnly: false, preset: order.preset,
                                        decoderThreads: 1, jobs: 1, partsFolder: folders.cache)
            let session = try workspace.prepareRender(request, needsOutput: true).session
            state.withLock { $0.running[render.id] = session }
            defer { state.withLock { $0.running[render.id] = nil } }
            let (frames, segments) = (max(session.frameCount, 1), session.plan.segments.count)
            let report = try session.run { done in
                if beat.beat(progress: Double(done) / Double(frames), segments: segments) { session.cancel() }
            }
            render.status = .done
            render.progress = 1
            render.segmentsTotal = session.plan.segments.count
            (render.segmentsRendered, render.segmentsReused) = (report.rendered.count, report.reused.count)
            render.outputPath = output
            render.outputBytes = (try? FileManager.default.attributesOfItem(atPath: output)[.size] as? Int64) ?? nil
            render.outputSHA256 = try SHA256.hexDigest(ofFileAt: output)
            render.contentType = order.container.mediaType
        } catch RenderError.cancelled where stopping || beat.leaseLost {
            render.status = .queued
            (render.leaseUntil, render.leaseOwner) = (nil, nil)
            log("\(render.id): \(stopping ? "stopped with the service" : "stopped: its lease could not be renewed"); it will render again")
            return render
        } catch RenderError.cancelled {
            render.status = .cancelled
        } catch {
            render.status = .failed
            render.error = ErrorText.message(for: error)
        }
        render.finishedAt = Date().timeIntervalSince1970
        (render.leaseUntil, render.leaseOwner) = (nil, nil)
        return render
    }
}

/// Renews a render's lease and records its progress at most twice a second, from the render's
/// progress callback; says when the render should stop: a cancel was asked for, another node
/// holds the render now, or the lease could not be renewed for half its length (the node
/// stops before the lease runs out, so the render never runs on two nodes at once).
private final class Heartbeat: Sendable {
    private let store: RenderStore
    private let id: String
    private let owner: String
    private let lease: TimeInterval
    private let state: Mutex<(lastBeat: TimeInterval, lastRenewal: TimeInterval, leaseLost: Bool)>

    init(store: RenderStore, id: String, owner: String, lease: TimeInterval) {
        (self.store, self.id, self.owner, self.lease) = (store, id, owner, lease)
        let now = ProcessInfo.processInfo.systemUptime
        state = Mutex((now, now, false))
    }

    var leaseLost: Bool { state.withLock { $0.leaseLost } }

    /// True when the render should stop.
    func beat(progress: Double, segments: Int) -> Bool {
        let now = ProcessInfo.processInfo.systemUptime
        guard state.withLock({ state in
            guard now - state.lastBeat >= 0.5 else { return false }
            state.lastBeat = now
            return true
        }) else { return false }
        do {
            let held = try waitFor(on: ServerExecutor.shared) { [store, id, owner, lease] in try await store.heartbeat(id, owner: owner, progress: progress, segmentsTotal: segments, lease: lease) }
            return state.withLock { state in
                state.lastRenewal = now
                state.leaseLost = !held.held
                return !held.held || held.cancelRequested
            }
        } catch {
            return state.withLock { state in
                state.leaseLost = now - state.lastRenewal > lease / 2
                return state.leaseLost
            }
        }
    }
}
