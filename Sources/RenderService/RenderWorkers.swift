import Digest
import Foundation
import ProjectFile
import ReelApplication
import RenderEngine
import Synchronization

/// The threads that render queued renders, each one render at a time, through the application
/// layer as `reel render` does (so the bytes are the same), into `outputs/ID.EXT` with the
/// segment cache shared by every render.
final class RenderWorkers: Sendable {
    /// How long a lease lasts without a heartbeat; a worker renews it twice a second.
    static let lease: TimeInterval = 30

    private let store: RenderStore
    private let workspace: Workspace
    private let folders: ServiceFolders
    private let count: Int
    private let log: @Sendable (String) -> Void
    private let state = Mutex(State())

    private struct State {
        var stopping = false
        var running: [String: ExportSession] = [:]
        var threads = 0
    }

    init(store: RenderStore, workspace: Workspace, folders: ServiceFolders, count: Int, log: @escaping @Sendable (String) -> Void) {
        self.store = store
        self.workspace = workspace
        self.folders = folders
        self.count = count
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
                guard let render = try store.claimNext(lease: Self.lease) else {
                    Thread.sleep(forTimeInterval: 0.2)
                    continue
                }
                let ended = perform(render)
                try store.finish(ended, delivery: ended.status.isFinished ? Delivery(telling: ended) : nil)
            } catch {
                log("the job store failed: \(error); trying again in a second")
                Thread.sleep(forTimeInterval: 1)
            }
        }
    }

    /// Renders `render`, returning it as it ended: done with its output, failed with what went
    /// wrong, cancelled, or queued again when the service stops before it ends.
    private func perform(_ render: RenderRecord) -> RenderRecord {
        var render = render
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
            let beat = Heartbeat(store: store, id: render.id, frames: session.frameCount, segments: session.plan.segments.count)
            let report = try session.run { frames in if beat.beat(frames) { session.cancel() } }
            render.status = .done
            render.progress = 1
            render.segmentsTotal = session.plan.segments.count
            (render.segmentsRendered, render.segmentsReused) = (report.rendered.count, report.reused.count)
            render.outputPath = output
            render.outputBytes = (try? FileManager.default.attributesOfItem(atPath: output)[.size] as? Int64) ?? nil
            render.outputSHA256 = try SHA256.hexDigest(ofFileAt: output)
            render.contentType = order.container.mediaType
        } catch RenderError.cancelled where stopping {
            render.status = .queued
            render.leaseUntil = nil
            log("\(render.id): stopped with the service; it will render again at the next start")
            return render
        } catch RenderError.cancelled {
            render.status = .cancelled
        } catch {
            render.status = .failed
            render.error = ErrorText.message(for: error)
        }
        render.finishedAt = Date().timeIntervalSince1970
        render.leaseUntil = nil
        log("\(render.id): \(render.status.rawValue)")
        return render
    }
}

/// Renews a render's lease and records its progress at most twice a second, from the render's
/// progress callback; says when a cancel was asked for.
private final class Heartbeat: Sendable {
    private let store: RenderStore
    private let id: String
    private let frames: Int64
    private let segments: Int
    private let last = Mutex<TimeInterval>(0)

    init(store: RenderStore, id: String, frames: Int64, segments: Int) {
        (self.store, self.id, self.frames, self.segments) = (store, id, max(frames, 1), segments)
    }

    /// True when the render should stop.
    func beat(_ done: Int64) -> Bool {
        let now = ProcessInfo.processInfo.systemUptime
        guard last.withLock({ last in
            guard now - last >= 0.5 else { return false }
            last = now
            return true
        }) else { return false }
        return (try? store.heartbeat(id, progress: Double(done) / Double(frames), segmentsTotal: segments, lease: RenderWorkers.lease)) ?? false
    }
}
