import CompositionGraph
import MediaIO
import MediaTime

/// A `VideoFrameSource` over MediaIO's `VideoReader`: frames turned upright by the file's
/// rotation, then scaled and converted by `SourceScaler` to the size each layer needs. A
/// frame that already is BT.709 limited 4:2:0 at the asked size is lent without a copy, and
/// a frame shown again (sample and hold) is not converted again.
final class MediaIOVideoSource: VideoFrameSource {
    private let reader: VideoReader
    private let path: String
    private let hasAlpha: Bool
    private let scaler = SourceScaler()
    private var pool: FramePool?
    private var last: (source: VideoFrame, frame: YUVFrame)?

    init(path: String, decoderThreads: Int) throws {
        self.path = path
        reader = try VideoReader(path: path, options: VideoReader.Options(orientation: .display, decoderThreads: decoderThreads))
        hasAlpha = reader.info.streams[reader.streamIndex].video?.hasAlpha ?? false
    }

    func yuvFrame(at t: MediaTime, width: Int, height: Int) throws -> YUVFrame {
        let source = try reader.frame(at: t)
        if let last, last.source === source, last.frame.width == width, last.frame.height == height { return last.frame }
        let frame: YUVFrame
        if source.pixelFormat == .yuv420p, source.colorSpace == .bt709, source.width == width, source.height == height {
            let y = source.plane(0), u = source.plane(1), v = source.plane(2)
            precondition(u.bytesPerRow == v.bytesPerRow, "yuv420p chroma planes with different strides")
            frame = YUVFrame(width: width, height: height, y: y.baseAddress.assumingMemoryBound(to: UInt8.self),
                             u: u.baseAddress.assumingMemoryBound(to: UInt8.self), v: v.baseAddress.assumingMemoryBound(to: UInt8.self),
                             yStride: y.bytesPerRow, chromaStride: u.bytesPerRow, owner: source)
        } else {
            if pool?.width != width || pool?.height != height { pool = FramePool(width: width, height: height) }
            frame = try pool!.take()
            try scaler.convert(source, into: .yuv420p(frame), path: path)
        }
        last = (source, frame)
        return frame
    }

    func rgbaFrame(at t: MediaTime, width: Int, height: Int) throws -> RGBAImage {
        let source = try reader.frame(at: t)
        let image = RGBAImage(width: width, height: height)
        try scaler.convert(source, into: .rgba(image), path: path)
        if hasAlpha { image.premultiply() }
        return image
    }
}
