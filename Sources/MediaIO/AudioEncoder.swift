import MediaFormat
internal import CFFmpeg

/// One audio encoder: takes interleaved Float32 at its rate and channel count, cuts it into the
/// encoder's frame size, converts the sample format (swresample, same rate and layout) and
/// counts pts in samples.
final class AudioEncoder {
    let context: CodecContext
    let settings: WriterSettings.Audio
    private let site: FFmpegCallSite
    private let converter: OpaquePointer
    private let frame: Frame
    private let received: Packet
    /// Samples per encoded frame.
    private let frameSize: Int
    /// Interleaved samples waiting for a full frame.
    private var pending: [Float] = []
    private var samplesSent: Int64 = 0

    /// Samples handed to the codec so far (whole frames; the last one padded).
    var samplesTaken: Int64 { samplesSent }

    init(_ settings: WriterSettings.Audio, container: Container, format: UnsafePointer<AVOutputFormat>,
         path: String) throws {
        self.settings = settings
        site = FFmpegCallSite(path: path)
        let codec = try chooseEncoder(settings.codec.encoderNames, for: "\(settings.codec.rawValue) audio", container: container,
                                      format: format, path: path)
        try Self.checkSampleRate(settings.sampleRate, codec, path: path)
        guard (1...8).contains(settings.channels) else {
            throw MediaError(.unsupportedSettings, path: path, "audio must have 1…8 channels, not \(settings.channels)")
        }
        context = try CodecContext(codec, site)
        let c = context.pointer
        c.pointee.sample_rate = Int32(settings.sampleRate)
        c.pointee.time_base = AVRational(num: 1, den: Int32(settings.sampleRate))
        av_channel_layout_default(&c.pointee.ch_layout, Int32(settings.channels))
        c.pointee.sample_fmt = Self.sampleFormat(for: codec)
        if let bitrate = settings.bitrate { c.pointee.bit_rate = Int64(bitrate) }
        c.pointee.thread_count = 1
        c.pointee.flags |= AV_CODEC_FLAG_BITEXACT
        if (format.pointee.flags & AVFMT_GLOBALHEADER) != 0 { c.pointee.flags |= AV_CODEC_FLAG_GLOBAL_HEADER }
        FFmpeg.clearLog()
        try FFmpeg.check(avcodec_open2(c, codec, nil), "avcodec_open2", site, .unsupportedSettings,
                         "cannot open the \(String(cString: codec.pointee.name)) encoder at \(settings.sampleRate) Hz, \(settings.channels) ch")
        let variable = (codec.pointee.capabilities & AV_CODEC_CAP_VARIABLE_FRAME_SIZE) != 0
        frameSize = c.pointee.frame_size > 0 && !variable ? Int(c.pointee.frame_size) : 1024
        var converter: OpaquePointer? = nil
        var outputLayout = c.pointee.ch_layout, inputLayout = c.pointee.ch_layout // default layouts: plain copies
        try FFmpeg.check(swr_alloc_set_opts2(&converter, &outputLayout, c.pointee.sample_fmt, c.pointee.sample_rate,
                                             &inputLayout, AV_SAMPLE_FMT_FLT, c.pointee.sample_rate, 0, nil),
                         "swr_alloc_set_opts2", site, .encodingFailed, "cannot set up sample conversion")
        self.converter = converter!
        try FFmpeg.check(swr_init(converter), "swr_init", site, .encodingFailed, "cannot set up sample conversion")
        frame = try Frame(site)
        received = try Packet(site)
        pending.reserveCapacity(frameSize * settings.channels * 2)
    }

    deinit {
        var p: OpaquePointer? = converter
        swr_free(&p)
    }

    /// Float formats first (no conversion loss), else the encoder's first.
    private static func sampleFormat(for codec: UnsafePointer<AVCodec>) -> AVSampleFormat {
        guard var list = codec.pointee.sample_fmts else { return AV_SAMPLE_FMT_FLTP }
        var formats: [AVSampleFormat] = []
        while list.pointee != AV_SAMPLE_FMT_NONE { formats.append(list.pointee); list += 1 }
        return [AV_SAMPLE_FMT_FLTP, AV_SAMPLE_FMT_FLT].first(where: formats.contains) ?? formats[0]
    }

    private static func checkSampleRate(_ rate: Int, _ codec: UnsafePointer<AVCodec>, path: String) throws {
        guard rate > 0 else { throw MediaError(.unsupportedSettings, path: path, "audio sample rate must be positive") }
        guard var list = codec.pointee.supported_samplerates else { return }
        var rates: [Int32] = []
        while list.pointee != 0 { rates.append(list.pointee); list += 1 }
        guard rates.contains(Int32(rate)) else {
            throw MediaError(.unsupportedSettings, path: path, "\(String(cString: codec.pointee.name)) cannot encode \(rate) Hz; it takes \(rates.map(String.init).joined(separator: ", ")) Hz")
        }
    }

    /// Queues interleaved samples; encodes every full frame.
    func append(_ samples: UnsafeBufferPointer<Float>, write: (Packet) throws -> Void) throws {
        precondition(samples.count % settings.channels == 0, "\(samples.count) floats is not a whole number of \(settings.channels)-channel samples")
        pending.append(contentsOf: samples)
        let frameFloats = frameSize * settings.channels
        var consumed = 0
        while pending.count - consumed >= frameFloats {
            try encode(from: consumed, count: frameSize, write: write)
            consumed += frameFloats
        }
        pending.removeFirst(consumed)
    }

    /// Encodes what is left (a short last frame) and drains the encoder.
    func flush(write: (Packet) throws -> Void) throws {
        let left = pending.count / settings.channels
        if left > 0 {
            // PCM takes frames of any size; padding it would add silence to the end.
            let small = (context.pointer.pointee.codec.pointee.capabilities & (AV_CODEC_CAP_SMALL_LAST_FRAME | AV_CODEC_CAP_VARIABLE_FRAME_SIZE)) != 0
            if !small { pending += repeatElement(0, count: (frameSize - left) * settings.channels) } // pad with silence
            try encode(from: 0, count: small ? left : frameSize, write: write)
            pending.removeAll()
        }
        try send(nil, write: write)
    }

    private func encode(from offset: Int, count: Int, write: (Packet) throws -> Void) throws {
        let f = frame.pointer
        if f.pointee.nb_samples != Int32(count) || f.pointee.buf.0 == nil {
            frame.unref()
            f.pointee.nb_samples = Int32(count)
            f.pointee.format = context.pointer.pointee.sample_fmt.rawValue
            try FFmpeg.check(av_channel_layout_copy(&f.pointee.ch_layout, &context.pointer.pointee.ch_layout),
                             "av_channel_layout_copy", site, .outOfMemory, "cannot set the channel layout")
            f.pointee.sample_rate = context.pointer.pointee.sample_rate
            try FFmpeg.check(av_frame_get_buffer(f, 0), "av_frame_get_buffer", site, .outOfMemory, "cannot allocate audio")
        }
        // The encoder may still hold the last frame's buffer: copy-on-write if so.
        try FFmpeg.check(av_frame_make_writable(f), "av_frame_make_writable", site, .outOfMemory, "cannot allocate audio")
        let converted = pending.withUnsafeBufferPointer { samples -> Int32 in
            var input: UnsafePointer<UInt8>? = UnsafeRawPointer(samples.baseAddress! + offset).assumingMemoryBound(to: UInt8.self)
            return swr_convert(converter, f.pointee.extended_data, Int32(count), &input, Int32(count))
        }
        try FFmpeg.check(converted, "swr_convert", site, .encodingFailed, "cannot convert samples for the encoder")
        f.pointee.pts = samplesSent
        samplesSent += Int64(count)
        try send(f, write: write)
    }

    private func send(_ frame: UnsafeMutablePointer<AVFrame>?, write: (Packet) throws -> Void) throws {
        try FFmpeg.check(avcodec_send_frame(context.pointer, frame), "avcodec_send_frame", site, .encodingFailed,
                         "cannot encode the audio")
        while try context.receive(received, site) == .ready {
            try write(received)
            received.unref()
        }
    }
}
