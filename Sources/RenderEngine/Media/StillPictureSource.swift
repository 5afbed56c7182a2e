import CompositionGraph
import MediaIO
import MediaTime
import OverlayRendering

/// A still image or SVG shown as a clip, read by `StillPicture` exactly as an overlay of the
/// same file is: drawn by Cairo straight at the size a layer needs (so an SVG stays sharp
/// at any size), then converted once by MediaIO to the compositor's format. The same picture
/// is shown at every time, so a size drawn once is reused for as long as it is asked for.
final class StillPictureSource: VideoFrameSource {
    private let picture: StillPicture
    private let converter = VideoFrameConverter(fullChromaInterpolation: true)
    private var lastYUV: YUVFrame?
    private var lastRGBA: PremultipliedImage?

    init(path: String) throws {
        picture = try StillPicture(path: path)
    }

    func yuvFrame(at t: MediaTime, width: Int, height: Int) throws -> YUVFrame {
        if let lastYUV, lastYUV.width == width, lastYUV.height == height { return lastYUV }
        let target = try frame(width, height, .yuv420p)
        try converter.convert(try drawn(width, height), into: target)
        let frame = YUVFrame(lending: target)
        lastYUV = frame
        return frame
    }

    func rgbaFrame(at t: MediaTime, width: Int, height: Int) throws -> PremultipliedImage {
        if let lastRGBA, lastRGBA.width == width, lastRGBA.height == height { return lastRGBA }
        // Cairo's BGRA is premultiplied already; the conversion only reorders the channels.
        let target = try frame(width, height, .rgba)
        try converter.convert(try drawn(width, height), into: target)
        let plane = target.plane(0)
        let image = PremultipliedImage(width: width, height: height, stride: plane.bytesPerRow,
                                       pixels: plane.baseAddress.assumingMemoryBound(to: UInt8.self), owner: target)
        lastRGBA = image
        return image
    }

    /// The picture drawn at `width × height` as premultiplied BGRA.
    private func drawn(_ width: Int, _ height: Int) throws -> VideoFrame {
        let canvas = try frame(width, height, .bgra)
        let plane = canvas.plane(0)
        picture.draw(into: plane.baseAddress, width: width, height: height, stride: plane.bytesPerRow)
        return canvas
    }

    private func frame(_ width: Int, _ height: Int, _ format: PixelFormat) throws -> VideoFrame {
        try VideoFrame(width: width, height: height, pixelFormat: format)
    }
}
