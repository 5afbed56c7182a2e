import CompositionGraph
import Foundation
import MediaTime
import Synchronization

/// Pulls a graph through decoding, compositing and encoding on three threads joined by
/// bounded queues, so the stages overlap while memory stays bounded:
///
///     fetch (plan frame n, decode + scale its pictures) ─▶ composite (+ overlays) ─▶ encode (+ audio mix)
///
/// Each stage handles frames strictly in order and nothing depends on which thread runs
/// first, so the output is the same bytes whatever the timing or the number of cores.
///
/// @unchecked: its access, sink and overlays are not Sendable; each stage thread uses its own, meeting through the queues.
final class RenderPipeline: @unchecked Sendable {
    struct Configuration {
        var graph: CompositionGraph
        /// The part of the timeline to render (the whole of it by default).
        var range: TimeRange
        /// Whether the sink gets the mix of the range's audio too (a segment's part has video only).
        var mixesAudio = true
        /// Frames waiting between two stages.
        var queueDepth = 3
        /// Audio frames mixed and written at a time.
        var audioBlock = 1024
    }

    let config: Configuration
    private let access: MediaAccess
    private let sink: MediaSink
    private let overlays: OverlayStage?
    private let shelf: ReaderShelf?
    private let state = PipelineState()

    /// Video readers left on `shelf` by an earlier render are used before new ones are
    /// opened, and the readers still open at the end are left on it for the next.
    init(_ config: Configuration, access: MediaAccess, sink: MediaSink, overlays: OverlayStage?, shelf: ReaderShelf? = nil) {
        self.config = config
        self.access = access
        self.sink = sink
        self.overlays = overlays
        self.shelf = shelf
    }

    var frameDuration: MediaTime { config.graph.videoComposition.frameDuration }
    /// Frames written: every frame that starts inside the range.
    var frameCount: Int64 { config.range.duration.frameCount(frameDuration: frameDuration) }

    /// Stops the render soon (from any thread); `run` then throws `RenderError.cancelled`.
    func cancel() { state.fail(RenderError.cancelled) }

    /// Renders everything into the sink; `progress(framesDone)` is called after each frame.
    func run(progress: (Int64) -> Void) throws {
        let planned = BoundedQueue<(FramePlan, [LayerPicture?])>(capacity: config.queueDepth)
        let composited = BoundedQueue<(Int64, YUVFrame)>(capacity: config.queueDepth)
        state.closeOnFailure([planned.discard, composited.discard])
        let done = DispatchGroup()
        startThread("reel-fetch", done) { try self.fetch(into: planned) }
        startThread("reel-composite", done) { try self.composite(from: planned, into: composited) }
        do {
            try encode(from: composited, progress: progress)
        } catch {
            state.fail(error)
        }
        done.wait()
        if let error = state.error { throw error }
        try sink.finish()
    }

    private func startThread(_ name: String, _ group: DispatchGroup, _ body: @escaping @Sendable () throws -> Void) {
        group.enter()
        let state = self.state
        let thread = Thread {
            do { try body() } catch { state.fail(error) }
            group.leave()
        }
        thread.name = name
        thread.stackSize = 1 << 22
        thread.start()
    }

    private func frameTime(_ n: Int64) -> MediaTime { config.range.start + .frame(n, duration: frameDuration) }

    private func fetch(into queue: BoundedQueue<(FramePlan, [LayerPicture?])>) throws {
        let stage = FetchStage(graph: config.graph, access: access, shelf: shelf)
        defer { queue.close() }
        for n in 0..<frameCount {
            guard !state.stopped else { return }
            let t = frameTime(n)
            guard queue.push(try stage.fetch(frame: n, at: t)) else { return }
            stage.release(before: t)
        }
        stage.release(before: config.range.end)
        stage.shelveReaders()
    }

    private func composite(from input: BoundedQueue<(FramePlan, [LayerPicture?])>,
                           into output: BoundedQueue<(Int64, YUVFrame)>) throws {
        let stage = CompositeStage(renderSize: config.graph.videoComposition.renderSize, overlays: overlays, allocate: sink.makeFrame)
        defer { output.close() }
        while let (plan, pictures) = input.pop() {
            guard !state.stopped else { return }
            guard output.push((plan.index, try stage.render(plan, pictures: pictures))) else { return }
        }
    }

    private func encode(from input: BoundedQueue<(Int64, YUVFrame)>, progress: (Int64) -> Void) throws {
        let audio = config.mixesAudio && config.graph.hasAudio
            ? AudioFeed(graph: config.graph, range: config.range, blockSize: config.audioBlock, open: access.openAudio, write: sink.writeAudio)
            : nil
        while let (index, frame) = input.pop() {
            guard !state.stopped else { return }
            try sink.writeVideo(frame, index: index)
            // Audio up to the end of this frame, so the muxer gets both streams in step.
            try audio?.write(until: frameTime(index + 1))
            progress(index + 1)
        }
        guard !state.stopped else { return }
        try audio?.write(until: config.range.end)
    }
}

/// The first failure of any stage (or a cancel), shared by the threads.
final class PipelineState: Sendable {
    private struct State {
        var firstError: Error?
        /// Close every queue, so blocked stages wake up and stop.
        var closers: [@Sendable () -> Void] = []
    }

    private let state = Mutex(State())

    var error: Error? { state.withLock { $0.firstError } }
    var stopped: Bool { state.withLock { $0.firstError != nil } }

    /// What `fail` closes: the queues between the stages.
    func closeOnFailure(_ closers: [@Sendable () -> Void]) { state.withLock { $0.closers = closers } }

    func fail(_ error: Error) {
        let closers: [@Sendable () -> Void] = state.withLock { state in
            guard state.firstError == nil else { return [] }
            state.firstError = error
            return state.closers
        }
        for close in closers { close() }
    }
}
