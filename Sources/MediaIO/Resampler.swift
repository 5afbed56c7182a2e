internal import CFFmpeg

/// libswresample from a decoder's frames to interleaved Float32 at a fixed rate and channel
/// count. Mono→stereo duplicates the channel and stereo→mono averages; other layouts use
/// swresample's standard (ITU-R BS.775) matrix: centre and surrounds at −3 dB, LFE dropped,
/// not normalised (Float output may exceed ±1; the mixer's limiter deals with it).
final class Resampler {
    private var context: OpaquePointer?
    private var input: (format: Int32, rate: Int32, layout: AVChannelLayout)?
    let rate: Int
    let channels: Int
    private let site: FFmpegCallSite

    init(rate: Int, channels: Int, site: FFmpegCallSite) {
        self.rate = rate
        self.channels = channels
        self.site = site
    }

    deinit {
        swr_free(&context)
        if var layout = input?.layout { av_channel_layout_uninit(&layout) }
    }

    /// Forgets buffered samples (after a seek).
    func reset() {
        swr_free(&context)
        if var layout = input?.layout { av_channel_layout_uninit(&layout) }
        input = nil
    }

    /// Output samples (per channel) that `inputSamples` more input can produce at most.
    func maximumOutput(for inputSamples: Int) -> Int {
        guard let context else { return inputSamples * rate / 8000 + 256 }
        return Int(swr_get_out_samples(context, Int32(inputSamples)))
    }

    /// Converts `frame` (nil: flush) into `output`; returns samples per channel written.
    func convert(_ frame: UnsafeMutablePointer<AVFrame>?, into output: UnsafeMutablePointer<Float>, capacity: Int) throws -> Int {
        if let frame { try configure(for: frame) }
        guard let context else { return 0 }
        var out: UnsafeMutablePointer<UInt8>? = UnsafeMutableRawPointer(output).assumingMemoryBound(to: UInt8.self)
        let inputData = frame.map { UnsafeMutableRawPointer($0.pointee.extended_data).assumingMemoryBound(to: UnsafePointer<UInt8>?.self) }
        let written = swr_convert(context, &out, Int32(capacity), inputData, frame.map { $0.pointee.nb_samples } ?? 0)
        return Int(try FFmpeg.check(written, "swr_convert", site, .decodingFailed, "cannot resample the audio"))
    }

    /// (Re)creates the context when the input format changes.
    private func configure(for frame: UnsafeMutablePointer<AVFrame>) throws {
        var layout = AVChannelLayout()
        if frame.pointee.ch_layout.order == AV_CHANNEL_ORDER_UNSPEC || frame.pointee.ch_layout.nb_channels == 0 {
            av_channel_layout_default(&layout, max(1, frame.pointee.ch_layout.nb_channels))
        } else {
            try FFmpeg.check(av_channel_layout_copy(&layout, &frame.pointee.ch_layout), "av_channel_layout_copy", site,
                             .outOfMemory, "cannot copy the channel layout")
        }
        if let input, context != nil, input.format == frame.pointee.format, input.rate == frame.pointee.sample_rate,
           var old = Optional(input.layout), av_channel_layout_compare(&old, &layout) == 0 {
            av_channel_layout_uninit(&layout)
            return
        }
        reset()
        _ = FFmpeg.setUp
        input = (frame.pointee.format, frame.pointee.sample_rate, layout)
        var outputLayout = AVChannelLayout()
        av_channel_layout_default(&outputLayout, Int32(channels))
        defer { av_channel_layout_uninit(&outputLayout) }
        try FFmpeg.check(swr_alloc_set_opts2(&context, &outputLayout, AV_SAMPLE_FMT_FLT, Int32(rate), &layout,
                                             AVSampleFormat(rawValue: frame.pointee.format), frame.pointee.sample_rate, 0, nil),
                         "swr_alloc_set_opts2", site, .decodingFailed, "cannot set up resampling")
        let inputChannels = Int(layout.nb_channels)
        if let matrix = Self.simpleMatrix(from: inputChannels, to: channels) {
            try FFmpeg.check(swr_set_matrix(context, matrix, Int32(inputChannels)), "swr_set_matrix", site,
                             .decodingFailed, "cannot set the channel matrix")
        }
        try FFmpeg.check(swr_init(context), "swr_init", site, .decodingFailed,
                         "cannot resample \(frame.pointee.sample_rate) Hz \(inputChannels) ch to \(rate) Hz \(channels) ch")
    }

    /// Matrices swresample would do differently from the usual expectation.
    private static func simpleMatrix(from input: Int, to output: Int) -> [Double]? {
        switch (input, output) {
        case (1, 2): [1, 1]          // mono → both speakers at full level
        case (2, 1): [0.5, 0.5]      // stereo → mono: the average
        default: nil
        }
    }
}
