import CompositionGraph
import MediaIO
import MediaTime

/// Reel's AVAssetImageGenerator: single output frames of a graph, made by the same planning,
/// decoding, compositing and overlay code as `ExportSession`, without rendering anything
/// else. A frame is the exact picture the encoder would get for that frame of the video.
///
/// Readers stay open between calls, so frames asked for in increasing order (thumbnails)
/// decode forward; a jump seeks to the keyframe before the frame. Use from one thread.
public final class FrameGenerator {
    public let graph: CompositionGraph
    private let fetch: FetchStage
    private let composite: CompositeStage
    private let converter = VideoFrameConverter(fullChromaInterpolation: true)

    /// Applies the preset (its size and frame rate) and checks the media, as a render would.
    /// Readers on `shelf` (left there by `shelveReaders()` of an earlier generator) are used
    /// before new ones are opened. Throws `RenderError`.
    public init(graph: CompositionGraph, preset: ExportPreset? = nil, decoderThreads: Int = ExportOptions.defaultThreads,
                shelf: ReaderShelf? = nil) throws {
        let g = preset.map { $0.apply(to: graph) } ?? graph
        self.graph = g
        try MediaValidation.check(g)
        let size = g.videoComposition.renderSize
        let frames: VideoFramePool
        do {
            frames = try VideoFramePool(width: size.width, height: size.height, pixelFormat: g.frameFormat, colorSpace: .bt709)
        } catch {
            throw RenderError.invalidSettings("output size \(size): \(error)")
        }
        fetch = FetchStage(graph: g, access: .mediaIO(channels: g.output.audio.channels, decoderThreads: decoderThreads), shelf: shelf)
        composite = CompositeStage(renderSize: size, overlays: try OverlayBridge.make(graph: g)) { YUVFrame(lending: try frames.makeFrame()) }
    }

    public var frameDuration: MediaTime { graph.videoComposition.frameDuration }
    /// Frames in the video: every frame that starts before the end of the timeline.
    public var frameCount: Int64 { graph.duration.frameCount(frameDuration: frameDuration) }

    /// The frame on screen at timeline time `t` (the last one starting at or before `t`).
    /// Throws `RenderError.invalidSettings` for a time outside the timeline.
    public func frameIndex(at t: MediaTime) throws(RenderError) -> Int64 {
        guard !t.isNegative, t < graph.duration else {
            throw .invalidSettings("\(TimeNotation.clock(t)) is outside the timeline, which runs from 00:00:00.000 to \(TimeNotation.clock(graph.duration)) (exclusive)")
        }
        return t.frameIndex(frameDuration: frameDuration)
    }

    /// Puts the open readers on the shelf given at init, for the generator made next; this
    /// one opens new readers should it be asked for another frame.
    public func shelveReaders() { fetch.shelveReaders() }

    /// Timeline time of frame `n`: exactly n × frameDuration.
    public func time(ofFrame n: Int64) -> MediaTime { .frame(n, duration: frameDuration) }

    /// Frame `n` as the encoder gets it: 8-bit Y′CbCr 4:2:0, BT.709 limited range, at the
    /// render size, with an alpha plane when the output keeps alpha. Throws `RenderError`.
    public func frame(_ n: Int64) throws -> VideoFrame {
        precondition(n >= 0 && n < frameCount, "frame \(n) of \(frameCount)")
        let t = time(ofFrame: n)
        let (plan, pictures) = try fetch.fetch(frame: n, at: t)
        let frame = try composite.render(plan, pictures: pictures)
        fetch.release(before: t)
        guard let video = frame.planeOwner as? VideoFrame else { preconditionFailure("output frames lend MediaIO frames") }
        return video
    }

    /// Frame `n` as 8-bit RGB (by default `.rgb24`, `.rgba` with straight alpha when the output
    /// keeps alpha; `.bgra` for Cairo; full range, chroma interpolated at full resolution), scaled
    /// to `size` (default: the render size) in the same conversion. Throws `RenderError`.
    public func image(_ n: Int64, size: PixelSize? = nil, format: PixelFormat? = nil) throws -> VideoFrame {
        let format = format ?? (graph.keepsAlpha ? .rgba : .rgb24)
        precondition(format.isRGB, "images are RGB, not \(format)")
        let yuv = try frame(n)
        let size = size ?? graph.videoComposition.renderSize
        do {
            let rgb = try VideoFrame(width: size.width, height: size.height, pixelFormat: format, time: time(ofFrame: n))
            try converter.convert(yuv, into: rgb)
            return rgb
        } catch {
            throw RenderError.invalidSettings("cannot convert frame \(n) to a \(size) RGB image: \(error)")
        }
    }
}
