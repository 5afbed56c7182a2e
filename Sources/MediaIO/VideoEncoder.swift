import MediaFormat
internal import CFFmpeg
import MediaTime

/// One video encoder (time base 1/frameRate, frame n has pts n), converting frames that are not
/// already in its size, format and colour space.
final class VideoEncoder {
    let context: CodecContext
    let settings: WriterSettings.Video
    private let site: FFmpegCallSite
    /// Full-chroma interpolation for RGB targets (PNG, APNG, a GIF's pictures): the pictures
    /// `reel frame` makes, within a level of the source; a Y′CbCr target is unaffected.
    private let converter = FrameConverter(scaler: .bicubic, fullChromaInterpolation: true)
    private let pool: VideoFramePool
    private let scratch: Frame
    private let received: Packet
    /// Strips x264's SEI that carries its version and options (deterministic, anonymous bytes).
    private let filter: BitstreamFilter?

    init(_ settings: WriterSettings.Video, container: Container, format: UnsafePointer<AVOutputFormat>,
         path: String) throws {
        self.settings = settings
        site = FFmpegCallSite(path: path)
        let codec = try chooseEncoder(settings.codec.encoderNames, for: "\(settings.codec.rawValue) video", container: container,
                                      format: format, path: path)
        guard settings.width > 0, settings.height > 0, settings.frameRate > .zero else {
            throw MediaError(.unsupportedSettings, path: path, "video must have a positive size and frame rate, not \(settings.width)x\(settings.height) at \(settings.frameRate) fps")
        }
        try Self.checkPixelFormat(settings.pixelFormat, codec, path: path)
        context = try CodecContext(codec, site)
        let c = context.pointer
        c.pointee.width = Int32(settings.width)
        c.pointee.height = Int32(settings.height)
        c.pointee.time_base = settings.frameRate.reciprocal.avRational
        c.pointee.framerate = settings.frameRate.avRational
        c.pointee.sample_aspect_ratio = AVRational(num: 1, den: 1)
        c.pointee.pix_fmt = settings.pixelFormat.av
        c.pointee.thread_count = Int32(settings.threads)
        c.pointee.flags |= AV_CODEC_FLAG_BITEXACT
        if (format.pointee.flags & AVFMT_GLOBALHEADER) != 0 { c.pointee.flags |= AV_CODEC_FLAG_GLOBAL_HEADER }
        if let gop = settings.gopSize { c.pointee.gop_size = Int32(gop) }
        let color = settings.colorSpace
        c.pointee.colorspace = color.avMatrix
        c.pointee.color_primaries = color.avPrimaries
        c.pointee.color_trc = color.avTransfer
        c.pointee.color_range = settings.pixelFormat.isRGB ? AVCOL_RANGE_JPEG : color.avRange
        try Self.applyQualityAndPreset(settings, context, site)
        // Without it, the kernel's clearing of pages for each new encoder's buffers cost a fifth
        // of a 5 s segment's CPU (perf; docs/render.md).
        HeapPolicy.prepareForEncoder()
        FFmpeg.clearLog()
        try FFmpeg.check(avcodec_open2(c, codec, nil), "avcodec_open2", site, .unsupportedSettings,
                         "cannot open the \(String(cString: codec.pointee.name)) encoder with \(settings.summary)")
        pool = try VideoFramePool(width: settings.width, height: settings.height, pixelFormat: settings.pixelFormat,
                                  colorSpace: color)
        scratch = try Frame(site)
        received = try Packet(site)
        filter = settings.codec == .h264
            ? try BitstreamFilter("filter_units", options: [("remove_types", "6")], encoder: context, site) : nil
    }

    private static func checkPixelFormat(_ format: PixelFormat, _ codec: UnsafePointer<AVCodec>, path: String) throws {
        guard var list = codec.pointee.pix_fmts else { return }
        var supported: [String] = []
        while list.pointee != AV_PIX_FMT_NONE {
            if list.pointee == format.av { return }
            supported.append(PixelFormat(list.pointee).name)
            list += 1
        }
        throw MediaError(.unsupportedSettings, path: path, "\(String(cString: codec.pointee.name)) cannot encode \(format); it takes \(supported.joined(separator: ", "))")
    }

    private static func applyQualityAndPreset(_ s: WriterSettings.Video, _ context: CodecContext, _ site: FFmpegCallSite) throws {
        let name = String(cString: context.pointer.pointee.codec.pointee.name)
        switch s.quality {
        case .bitrate(let bps): context.pointer.pointee.bit_rate = Int64(bps)
        case .crf(let crf) where s.codec.defaultCRF != nil:
            try setOption(context, "crf", String(crf), site)
            if s.codec == .vp9 { context.pointer.pointee.bit_rate = 0 }
        case .crf: break
        }
        switch name {
        case "libx264":
            if let preset = s.preset { try setOption(context, "preset", preset, site) }
            // No macroblock-tree rate control: its cost propagation runs x264's SIMD code that
            // divides with RCPPS, an approximation each CPU maker implements its own way, and
            // whose AVX-512 version reads memory it never wrote. Without it the bytes are the
            // same on every CPU with SSSE3 and whatever the heap holds (docs/render.md).
            try setOption(context, "x264-params", "mbtree=0", site)
        case "libx265":
            if let preset = s.preset { try setOption(context, "preset", preset, site) }
            // Fixed pools and frame threads (x265 otherwise counts cores) and no version SEI.
            try setOption(context, "x265-params", "pools=\(s.threads):frame-threads=\(min(s.threads, 4)):info=0:log-level=error", site)
        case "libvpx-vp9":
            if let preset = s.preset { try setOption(context, "deadline", preset, site) }
        case "libsvtav1", "libaom-av1":
            if let preset = s.preset { try setOption(context, name == "libsvtav1" ? "preset" : "cpu-used", preset, site) }
        case "prores_ks":
            try setOption(context, "profile", s.preset ?? "standard", site)
        case "mjpeg":
            // A fixed quantizer (ffmpeg's -q:v 2): high quality, the same for every frame.
            context.pointer.pointee.flags |= AV_CODEC_FLAG_QSCALE
            context.pointer.pointee.global_quality = 2 * FF_QP2LAMBDA
        default: break
        }
    }

    /// Encodes `frame` as frame `index`, passing each packet that comes out to `write`.
    func encode(_ frame: VideoFrame, index: Int64, write: (Packet) throws -> Void) throws {
        let s = settings
        if frame.width == s.width, frame.height == s.height, frame.pixelFormat == s.pixelFormat,
           frame.pixelFormat.isRGB || frame.colorSpace == s.colorSpace {
            try FFmpeg.check(av_frame_ref(scratch.pointer, frame.frame.pointer), "av_frame_ref", site, .outOfMemory,
                             "cannot reference the frame")
        } else {
            let target = try pool.makeAVFrame()
            try converter.convert(frame.frame.pointer, frame.colorSpace, into: target.pointer, s.colorSpace, site)
            scratch.take(target)
        }
        scratch.pointer.pointee.pts = index
        scratch.pointer.pointee.pict_type = AV_PICTURE_TYPE_NONE
        defer { scratch.unref() }
        try send(scratch.pointer, write: write)
    }

    /// Sends the end of the stream and writes the remaining packets.
    func flush(write: (Packet) throws -> Void) throws {
        try send(nil, write: write)
        try filter?.filter(nil, site, output: write)
    }

    private func send(_ frame: UnsafeMutablePointer<AVFrame>?, write: (Packet) throws -> Void) throws {
        try FFmpeg.check(avcodec_send_frame(context.pointer, frame), "avcodec_send_frame", site, .encodingFailed,
                         "cannot encode the video")
        while try context.receive(received, site) == .ready {
            if let filter { try filter.filter(received, site, output: write) } else { try write(received) }
            received.unref()
        }
    }
}
