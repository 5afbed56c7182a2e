import AtomicFiles
internal import CFFmpeg
import Foundation
import MediaTime

/// PNG images from frames, with libavcodec's PNG encoder (bit-exact mode, so the same pixels
/// always give the same bytes). 8-bit RGB, or RGBA for frames with alpha; any other format is
/// converted first (YUV → RGB with the frame's own matrix and range).
public enum PNGEncoder {
    /// The PNG file's bytes. Throws `MediaError`.
    public static func encode(_ frame: VideoFrame) throws -> [UInt8] {
        let site = FFmpegCallSite(path: "(PNG of a \(frame.width)x\(frame.height) \(frame.pixelFormat) frame)")
        let rgb = try packedRGB(frame)
        guard let codec = avcodec_find_encoder(AV_CODEC_ID_PNG) else {
            throw MediaError(.unsupportedCodec, path: site.path, "this FFmpeg build has no PNG encoder")
        }
        let context = try CodecContext(codec, site)
        let c = context.pointer
        c.pointee.width = Int32(rgb.width)
        c.pointee.height = Int32(rgb.height)
        c.pointee.pix_fmt = rgb.pixelFormat.av
        c.pointee.time_base = AVRational(num: 1, den: 1)
        c.pointee.flags |= AV_CODEC_FLAG_BITEXACT
        try FFmpeg.check(avcodec_open2(c, codec, nil), "avcodec_open2", site, .encodingFailed, "cannot open the PNG encoder")
        try FFmpeg.check(avcodec_send_frame(c, rgb.frame.pointer), "avcodec_send_frame", site, .encodingFailed, "cannot encode PNG")
        try FFmpeg.check(avcodec_send_frame(c, nil), "avcodec_send_frame", site, .encodingFailed, "cannot flush the PNG encoder")
        let packet = try Packet(site)
        var bytes: [UInt8] = []
        while try context.receive(packet, site) == .ready {
            bytes.append(contentsOf: UnsafeBufferPointer(start: packet.pointer.pointee.data, count: Int(packet.pointer.pointee.size)))
            packet.unref()
        }
        return bytes
    }

    /// Writes the PNG to `path` through a temporary file beside it, renamed into place, so a
    /// failure never leaves a partial image. Throws `MediaError`.
    public static func write(_ frame: VideoFrame, to path: String) throws {
        try writeAtomically(try encode(frame), to: path)
    }

    /// `bytes` into `path` via a temporary file in the same folder (`PartialFile`, locked while
    /// written, its folder made if missing) and a rename. Throws `MediaError(.writingFailed)`
    /// with the system's reason (a folder that cannot be made, another process writing `path`).
    public static func writeAtomically(_ bytes: [UInt8], to path: String) throws {
        do {
            // Stills come by the hundred; an fsync each would cost more than they are worth.
            try PartialFile.write(bytes, to: path, sync: false)
        } catch {
            throw MediaError(error)
        }
    }

    /// `frame` itself when it is already rgb24 or rgba, else a converted copy.
    private static func packedRGB(_ frame: VideoFrame) throws -> VideoFrame {
        if frame.pixelFormat == .rgb24 || frame.pixelFormat == .rgba { return frame }
        let target = try VideoFrame(width: frame.width, height: frame.height, pixelFormat: frame.pixelFormat.hasAlpha ? .rgba : .rgb24,
                                    time: frame.time)
        try VideoFrameConverter(fullChromaInterpolation: true).convert(frame, into: target)
        return target
    }
}
