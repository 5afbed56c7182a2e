internal import CFFmpeg
import MediaTime

extension VideoFrame {
    /// A `pal8` frame (what FFmpeg's GIF encoder takes): `indices` one byte a pixel, rows of
    /// `width`, and `palette` of 256 colours as 0xAARRGGBB. Throws `MediaError`.
    public static func paletted(width: Int, height: Int, indices: [UInt8], palette: [UInt32]) throws -> VideoFrame {
        precondition(indices.count == width * height && palette.count == 256, "a pal8 frame needs width × height indices and 256 colours")
        let site = FFmpegCallSite(path: "(\(width)x\(height) pal8 frame)")
        let frame = try Frame(site)
        let f = frame.pointer
        f.pointee.width = Int32(width)
        f.pointee.height = Int32(height)
        f.pointee.format = AV_PIX_FMT_PAL8.rawValue
        try FFmpeg.check(av_frame_get_buffer(f, 0), "av_frame_get_buffer", site, .outOfMemory, "cannot make a frame")
        let stride = Int(f.lineSizes[0])
        indices.withUnsafeBytes { source in
            for y in 0..<height {
                (f.planeData[0]! + y * stride).update(from: source.baseAddress!.assumingMemoryBound(to: UInt8.self) + y * width, count: width)
            }
        }
        palette.withUnsafeBytes { source in
            f.planeData[1]!.update(from: source.baseAddress!.assumingMemoryBound(to: UInt8.self), count: 1024)
        }
        return VideoFrame(frame: frame, time: .zero, colorSpace: .bt709)
    }
}
