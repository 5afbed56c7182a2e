internal import CFFmpeg

/// Owns one FFmpeg object from its `av_*_alloc`, freed exactly once in `deinit` by the
/// matching `av_*_free`.
class FFmpegObject<Object> {
    let pointer: UnsafeMutablePointer<Object>
    private let free: (UnsafeMutablePointer<UnsafeMutablePointer<Object>?>?) -> Void

    init(_ allocated: UnsafeMutablePointer<Object>?, _ call: String, _ site: FFmpegCallSite,
         free: @escaping (UnsafeMutablePointer<UnsafeMutablePointer<Object>?>?) -> Void) throws {
        pointer = try FFmpeg.allocated(allocated, call, site)
        self.free = free
    }

    deinit {
        var p: UnsafeMutablePointer<Object>? = pointer
        free(&p)
    }
}

/// An `AVPacket`.
final class Packet: FFmpegObject<AVPacket> {
    init(_ site: FFmpegCallSite) throws {
        try super.init(av_packet_alloc(), "av_packet_alloc", site, free: av_packet_free)
    }

    func unref() { av_packet_unref(pointer) }
}

/// An `AVFrame` (freeing it also drops its buffer references).
final class Frame: FFmpegObject<AVFrame> {
    init(_ site: FFmpegCallSite) throws {
        try super.init(av_frame_alloc(), "av_frame_alloc", site, free: av_frame_free)
    }

    func unref() { av_frame_unref(pointer) }

    /// Moves `other`'s content into this frame (other is left empty).
    func take(_ other: Frame) {
        av_frame_unref(pointer)
        av_frame_move_ref(pointer, other.pointer)
    }

    /// The frame's presentation time in stream ticks: `best_effort_timestamp`, else `pts`.
    var presentationTicks: Int64? { Self.presentationTicks(pointer) }

    static func presentationTicks(_ frame: UnsafeMutablePointer<AVFrame>) -> Int64? {
        let t = frame.pointee.best_effort_timestamp
        if t != FFmpeg.noPTS { return t }
        return frame.pointee.pts == FFmpeg.noPTS ? nil : frame.pointee.pts
    }
}

/// An `AVCodecContext`.
final class CodecContext: FFmpegObject<AVCodecContext> {
    init(_ codec: UnsafePointer<AVCodec>, _ site: FFmpegCallSite) throws {
        _ = FFmpeg.setUp
        try super.init(avcodec_alloc_context3(codec), "avcodec_alloc_context3", site, free: avcodec_free_context)
    }
}

/// What a `receive` call gave: a frame/packet, a request for more input, or the end.
enum CodecResult {
    case ready, needsInput, endOfStream
}

extension CodecContext {
    /// `avcodec_receive_frame`, with EAGAIN and EOF as results.
    func receive(_ frame: Frame, _ site: FFmpegCallSite, _ kind: MediaError.Kind) throws -> CodecResult {
        let status = avcodec_receive_frame(pointer, frame.pointer)
        if status == FFmpeg.eagain { return .needsInput }
        if status == FFmpeg.eof { return .endOfStream }
        try FFmpeg.check(status, "avcodec_receive_frame", site, kind, "cannot decode")
        return .ready
    }

    /// `avcodec_receive_packet`, with EAGAIN and EOF as results.
    func receive(_ packet: Packet, _ site: FFmpegCallSite) throws -> CodecResult {
        let status = avcodec_receive_packet(pointer, packet.pointer)
        if status == FFmpeg.eagain { return .needsInput }
        if status == FFmpeg.eof { return .endOfStream }
        try FFmpeg.check(status, "avcodec_receive_packet", site, .encodingFailed, "cannot encode")
        return .ready
    }
}
