internal import CFFmpeg
import MediaFormat
import MediaTime

/// Decodes pictures coded one a packet (PNG), as a segmented render's parts hold them for the
/// formats the join re-encodes (GIF, APNG).
public enum PictureDecoder {
    /// The picture a PNG file's `bytes` hold, in the format they were coded in (RGB24 for Reel's
    /// parts); `path` names it in messages. A fresh decoder each time: FFmpeg 5.1's PNG decoder
    /// carries state from one picture to the next (the second of two decodes wrong). Throws
    /// `MediaError`.
    public static func decodePNG(_ bytes: [UInt8], path: String) throws -> VideoFrame {
        let site = FFmpegCallSite(path: path)
        guard let codec = avcodec_find_decoder(AV_CODEC_ID_PNG) else {
            throw MediaError(.unsupportedSettings, path: path, "this FFmpeg build has no PNG decoder")
        }
        let context = try CodecContext(codec, site)
        context.pointer.pointee.thread_count = 1
        try FFmpeg.check(avcodec_open2(context.pointer, codec, nil), "avcodec_open2", site, .decodingFailed, "cannot open the PNG decoder")
        let packet = try Packet(site)
        try FFmpeg.check(av_new_packet(packet.pointer, Int32(bytes.count)), "av_new_packet", site, .outOfMemory, "cannot make a packet")
        bytes.withUnsafeBufferPointer { packet.pointer.pointee.data.update(from: $0.baseAddress!, count: bytes.count) }
        try FFmpeg.check(avcodec_send_packet(context.pointer, packet.pointer), "avcodec_send_packet", site, .decodingFailed,
                         "cannot decode a picture")
        let frame = try Frame(site)
        guard try context.receive(frame, site, .decodingFailed) == .ready else {
            throw MediaError(.decodingFailed, path: path, "a picture packet gave no picture")
        }
        return VideoFrame(frame: frame, time: .zero, colorSpace: .bt709)
    }
}
