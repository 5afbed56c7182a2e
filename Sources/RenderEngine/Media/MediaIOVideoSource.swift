import CompositionGraph
import MediaIO
import MediaTime

/// A `VideoFrameSource` over MediaIO's `VideoReader`: frames turned upright by the file's
/// rotation, then scaled and converted by MediaIO's `VideoFrameConverter` (libswscale,
/// bit-exact, the source's matrix and range honoured) to the size each layer needs. A frame
/// that already is BT.709 limited 4:2:0 at the asked size is lent without a copy, and a
/// frame shown again (sample and hold, or a still image) is not converted again. Converted
/// frames live in pooled MediaIO frame memory, which the returned pictures borrow: no copy,
/// no allocation per frame, and a Y′CbCr one can be handed to the writer as it is. The frames
/// may come from elsewhere (a nested project's rendered frames).
final class MediaIOVideoSource: VideoFrameSource {
    /// The source frame shown at a time; the same object while the same frame is shown.
    private let frameAt: (MediaTime) throws -> VideoFrame
    private let hasAlpha: Bool
    /// RGB pictures (the general path) within a level of the source's colours.
    private let converter = VideoFrameConverter(fullChromaInterpolation: true)
    private var pool: FramePool?
    private var rgbaFrames: VideoFramePool?
    private var last: (source: VideoFrame, frame: YUVFrame)?
    private var lastRGBA: (source: VideoFrame, image: PremultipliedImage)?

    /// The file at `path`; an image sequence read at `sequenceRate` (nil: 25 fps).
    convenience init(path: String, sequenceRate: Rational? = nil, decoderThreads: Int) throws {
        let reader = try VideoReader(path: path, options: VideoReader.Options(orientation: .display, decoderThreads: decoderThreads,
                                                                              sequenceRate: sequenceRate))
        self.init(frames: reader.frame(at:), hasAlpha: reader.info.streams[reader.streamIndex].video?.hasAlpha ?? false)
    }

    init(frames: @escaping (MediaTime) throws -> VideoFrame, hasAlpha: Bool) {
        frameAt = frames
        self.hasAlpha = hasAlpha
    }

    func yuvFrame(at t: MediaTime, width: Int, height: Int) throws -> YUVFrame {
        let source = try frameAt(t)
        if let last, last.source === source, last.frame.width == width, last.frame.height == height { return last.frame }
        let frame: YUVFrame
        if source.pixelFormat == .yuv420p, source.colorSpace == .bt709, source.width == width, source.height == height {
            frame = YUVFrame(lending: source)
        } else {
            if pool?.width != width || pool?.height != height {
                // In MediaIO frame memory, so a scaled frame that fills the output reaches the encoder uncopied.
                let frames = try VideoFramePool(width: width, height: height, pixelFormat: .yuv420p, colorSpace: .bt709)
                pool = FramePool(width: width, height: height) { YUVFrame(lending: try frames.makeFrame()) }
            }
            frame = try pool!.take()
            guard let target = frame.planeOwner as? VideoFrame else { preconditionFailure("pooled frames lend MediaIO frames") }
            try converter.convert(source, into: target)
        }
        last = (source, frame)
        return frame
    }

    func rgbaFrame(at t: MediaTime, width: Int, height: Int) throws -> PremultipliedImage {
        let source = try frameAt(t)
        if let lastRGBA, lastRGBA.source === source, lastRGBA.image.width == width, lastRGBA.image.height == height {
            return lastRGBA.image
        }
        if rgbaFrames?.width != width || rgbaFrames?.height != height {
            rgbaFrames = try VideoFramePool(width: width, height: height, pixelFormat: .rgba)
        }
        // A pooled frame is reused only once every image showing it is gone.
        let converted = try rgbaFrames!.makeFrame()
        try converter.convert(source, into: converted)
        let plane = converted.plane(0)
        let image = PremultipliedImage(width: width, height: height, stride: plane.bytesPerRow,
                              pixels: plane.baseAddress.assumingMemoryBound(to: UInt8.self), owner: converted)
        if hasAlpha { image.premultiply() }
        lastRGBA = (source, image)
        return image
    }
}
