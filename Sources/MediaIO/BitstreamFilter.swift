internal import CFFmpeg

/// Owns an `AVBSFContext`: packets in, packets out (EAGAIN/EOF as results).
final class BitstreamFilter {
    private var context: UnsafeMutablePointer<AVBSFContext>

    /// `name` with private `options`, for packets of `encoder` in its time base.
    init(_ name: String, options: [(String, String)], encoder: CodecContext, _ site: FFmpegCallSite) throws {
        guard let filter = av_bsf_get_by_name(name) else {
            throw MediaError(.unsupportedSettings, path: site.path, "this FFmpeg build has no \(name) bitstream filter")
        }
        var pointer: UnsafeMutablePointer<AVBSFContext>? = nil
        try FFmpeg.check(av_bsf_alloc(filter, &pointer), "av_bsf_alloc", site, .outOfMemory, "cannot make the \(name) filter")
        context = pointer!
        for (key, value) in options {
            try FFmpeg.check(av_opt_set(context.pointee.priv_data, key, value, 0), "av_opt_set(\(key))", site,
                             .unsupportedSettings, "the \(name) filter refuses \(key) = \(value)")
        }
        try FFmpeg.check(avcodec_parameters_from_context(context.pointee.par_in, encoder.pointer),
                         "avcodec_parameters_from_context", site, .encodingFailed, "cannot set up the \(name) filter")
        context.pointee.time_base_in = encoder.pointer.pointee.time_base
        try FFmpeg.check(av_bsf_init(context), "av_bsf_init", site, .encodingFailed, "cannot start the \(name) filter")
    }

    deinit {
        var p: UnsafeMutablePointer<AVBSFContext>? = context
        av_bsf_free(&p)
    }

    /// Filters `packet` (nil: end of stream), calling `output` for each packet that comes out.
    func filter(_ packet: Packet?, _ site: FFmpegCallSite, output: (Packet) throws -> Void) throws {
        try FFmpeg.check(av_bsf_send_packet(context, packet?.pointer), "av_bsf_send_packet", site, .encodingFailed,
                         "cannot filter the encoded video")
        let out = try Packet(site)
        while true {
            let status = av_bsf_receive_packet(context, out.pointer)
            if status == FFmpeg.eagain || status == FFmpeg.eof { return }
            try FFmpeg.check(status, "av_bsf_receive_packet", site, .encodingFailed, "cannot filter the encoded video")
            try output(out)
            out.unref()
        }
    }
}
