import CompositionGraph
import MediaIO
import MediaTime

/// A nested project's frames by its own timeline's time, rendered by a `FrameGenerator` of
/// its graph (its compositor and overlays; nothing is encoded or decoded). Frame n is shown
/// over `[n·d, (n+1)·d)` of the nested timeline, d its frame duration: sample and hold on its
/// own frame grid, as a video file's frames are; before its start the first, after its end
/// the last frame. Each frame is copied out of the generator (whose next frame reuses its
/// memory) into frame memory of its own, held for as long as the outer render needs it.
final class NestedFrames {
    private let generator: FrameGenerator
    private let copies: VideoFramePool
    private var last: (index: Int64, frame: VideoFrame)?

    init(_ nested: NestedProject, decoderThreads: Int) throws {
        // Opaque: a nested project's transparent background shows black, as its clip has no alpha.
        generator = try FrameGenerator(graph: nested.graph.opaque, decoderThreads: decoderThreads)
        let size = nested.graph.videoComposition.renderSize
        copies = try VideoFramePool(width: size.width, height: size.height, pixelFormat: .yuv420p, colorSpace: .bt709)
    }

    /// The frame shown at nested time `t` (the same object while the same frame is shown).
    func frame(at t: MediaTime) throws -> VideoFrame {
        let n = min(max(t, .zero).frameIndex(frameDuration: generator.frameDuration), generator.frameCount - 1)
        if let last, last.index == n { return last.frame }
        let frame = try copies.makeFrame()
        YUVFrame(lending: frame).copy(from: YUVFrame(lending: try generator.frame(n)))
        last = (n, frame)
        return frame
    }
}
