internal import CFFmpeg
import MediaFormat
import MediaTime

/// Decodes pictures coded one a packet (PNG), as a segmented render's parts hold them for the
/// formats the join re-encodes (GIF, APNG). Use from one thread at a time.
public final class PictureDecoder {
    private let context: CodecContext
    private let packet: Packet
    private let site: FFmpegCallSite

    /// `path` names the pictures in messages. Throws `MediaError`.
    public init(path: String) throws {
        site = FFmpegCallSite(path: path)
        guard let codec = avcodec_find_decoder(AV_CODEC_ID_PNG) else {
            throw MediaError(.unsupportedSettings, path: path, "this FFmpeg build has no PNG decoder")
        }
        context = try CodecContext(codec, site)
        context.pointer.pointee.thread_count = 1
        try FFmpeg.check(avcodec_open2(context.pointer, codec, nil), "avcodec_open2", site, .decodingFailed, "cannot open the PNG decoder")
        packet = try Packet(site)
    }

    /// The picture `bytes` hold, in the format they were coded in (RGB24 for Reel's parts).
    public func decode(_ bytes: [UInt8]) throws -> VideoFrame {
        try FFmpeg.check(av_new_packet(packet.pointer, Int32(bytes.count)), "av_new_packet", site, .outOfMemory, "cannot make a packet")
        defer { packet.unref() }
        bytes.withUnsafeBufferPointer { packet.pointer.pointee.data.update(from: $0.baseAddress!, count: bytes.count) }
        try FFmpeg.check(avcodec_send_packet(context.pointer, packet.pointer), "avcodec_send_packet", site, .decodingFailed,
                         "cannot decode a picture")
        let frame = try Frame(site)
        guard try context.receive(frame, site, .decodingFailed) == .ready else {
            throw MediaError(.decodingFailed, path: site.path, "a picture packet gave no picture")
        }
        return VideoFrame(frame: frame, time: .zero, colorSpace: .bt709)
    }
}
