internal import CFFmpeg

/// Owns an `AVPacket`; freed exactly once in `deinit`.
final class Packet {
    let pointer: UnsafeMutablePointer<AVPacket>

    init(_ site: FFmpegCallSite) throws {
        pointer = try FFmpeg.allocated(av_packet_alloc(), "av_packet_alloc", site)
    }

    deinit {
        var p: UnsafeMutablePointer<AVPacket>? = pointer
        av_packet_free(&p)
    }

    func unref() { av_packet_unref(pointer) }
}

/// Owns an `AVFrame`; freed exactly once in `deinit` (which also drops its buffer references).
final class Frame {
    let pointer: UnsafeMutablePointer<AVFrame>

    init(_ site: FFmpegCallSite) throws {
        pointer = try FFmpeg.allocated(av_frame_alloc(), "av_frame_alloc", site)
    }

    deinit {
        var p: UnsafeMutablePointer<AVFrame>? = pointer
        av_frame_free(&p)
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

/// Owns an `AVCodecContext`; freed exactly once in `deinit`.
final class CodecContext {
    let pointer: UnsafeMutablePointer<AVCodecContext>

    init(_ codec: UnsafePointer<AVCodec>, _ site: FFmpegCallSite) throws {
        pointer = try FFmpeg.allocated(avcodec_alloc_context3(codec), "avcodec_alloc_context3", site)
    }

    deinit {
        var p: UnsafeMutablePointer<AVCodecContext>? = pointer
        avcodec_free_context(&p)
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
