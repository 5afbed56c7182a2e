internal import CFFmpeg
import MediaTime

/// Decodes one stream of a file: reads packets (other streams are discarded by the demuxer),
/// feeds the decoder, and hands out frames in presentation order; `seek` restarts it.
/// Shared by `VideoReader` and `AudioReader`.
final class StreamDecoder {
    let file: InputFile
    let streamIndex: Int
    let timeBase: AVRational
    /// Source time 0 (`MediaInfo.timeZero`).
    let timeZero: MediaTime
    let context: CodecContext
    let site: FFmpegCallSite
    private let packet: Packet
    private let what: String
    private var inputEnded = false
    /// The decoder gave its last frame.
    private(set) var drained = false
    /// Packets before this time may be dropped undecoded when no other frame refers to them
    /// (`AVDISCARD_NONREF`): they hold frames a reader catching up to a later time never shows.
    /// Only for codecs whose decoders honour it exactly (H.264, HEVC); nil decodes everything.
    var skipsNonReferenceBefore: MediaTime?
    /// The latest time of a packet sent with leave to drop it since the last seek: the frame
    /// there may be missing.
    private(set) var latestSkippable: MediaTime?
    private let canSkip: Bool

    init(file: InputFile, stream index: Int, threads: Int, timeZero: MediaTime) throws {
        self.file = file
        streamIndex = index
        self.timeZero = timeZero
        let stream = file.stream(index)
        timeBase = stream.pointee.time_base
        what = stream.pointee.codecpar.pointee.codec_type == AVMEDIA_TYPE_AUDIO ? "audio" : "video"
        site = FFmpegCallSite(path: file.path, stream: index)
        context = try Self.openDecoder(for: file, stream: index, threads: threads)
        canSkip = [AV_CODEC_ID_H264, AV_CODEC_ID_HEVC].contains(context.pointer.pointee.codec_id)
        packet = try Packet(site)
        for i in 0..<file.streamCount where i != index { file.stream(i).pointee.discard = AVDISCARD_ALL }
    }

    /// Source time of a timestamp in the stream's time base.
    func time(ofTicks ticks: Int64) -> MediaTime { MediaTime(ticks: ticks, timeBase: timeBase) - timeZero }

    /// Decodes the next frame into `frame`; false at the end of the stream.
    func next(into frame: Frame) throws -> Bool {
        while !drained {
            switch try context.receive(frame, site, .decodingFailed) {
            case .ready: return true
            case .endOfStream: drained = true
            case .needsInput: try feed()
            }
        }
        return false
    }

    /// Seeks to the keyframe at or before `time` (to the very start when `time` is at or before
    /// the stream's first timestamp) and resets the decoder. Returns true for the very start.
    @discardableResult
    func seek(before time: MediaTime) throws -> Bool {
        let stream = file.stream(streamIndex).pointee
        let target = (time + timeZero).ticks(timeBase: timeBase)
        let first = stream.start_time == FFmpeg.noPTS ? timeZero.ticks(timeBase: timeBase) : stream.start_time
        let fromStart = target <= first
        if fromStart {
            try file.rewind()
        } else {
            var place = site
            place.time = time
            try FFmpeg.check(av_seek_frame(file.context, Int32(streamIndex), target, AVSEEK_FLAG_BACKWARD),
                             "av_seek_frame", place, .decodingFailed, "cannot seek")
        }
        avcodec_flush_buffers(context.pointer)
        inputEnded = false
        drained = false
        latestSkippable = nil
        return fromStart
    }

    /// Sends the stream's next packet, or the end-of-stream signal after the last one.
    private func feed() throws {
        if inputEnded { return }
        while try file.read(into: packet) {
            defer { packet.unref() }
            guard Int(packet.pointer.pointee.stream_index) == streamIndex else { continue }
            let pts = packet.pointer.pointee.pts
            var skippable = false
            if canSkip, pts != FFmpeg.noPTS, let limit = skipsNonReferenceBefore {
                let t = time(ofTicks: pts)
                skippable = t < limit
                if skippable { latestSkippable = max(latestSkippable ?? t, t) }
            }
            context.pointer.pointee.skip_frame = skippable ? AVDISCARD_NONREF : AVDISCARD_DEFAULT
            let status = avcodec_send_packet(context.pointer, packet.pointer)
            if status < 0 {
                var place = site
                place.time = pts == FFmpeg.noPTS ? nil : time(ofTicks: pts)
                throw FFmpeg.error(status, "avcodec_send_packet", place, .decodingFailed, "cannot decode the \(what)")
            }
            return
        }
        inputEnded = true
        let status = avcodec_send_packet(context.pointer, nil)
        if status != FFmpeg.eof {
            try FFmpeg.check(status, "avcodec_send_packet", site, .decodingFailed, "cannot finish decoding the \(what)")
        }
    }

    /// Opens the decoder for one stream of an input file.
    private static func openDecoder(for file: InputFile, stream index: Int, threads: Int) throws -> CodecContext {
        let site = FFmpegCallSite(path: file.path, stream: index)
        let parameters = file.stream(index).pointee.codecpar!
        guard let codec = avcodec_find_decoder(parameters.pointee.codec_id) else {
            let name = String(cString: avcodec_get_name(parameters.pointee.codec_id))
            throw MediaError(.unsupportedCodec, path: file.path,
                             "codec '\(name)' cannot be decoded by this FFmpeg build", stream: index)
        }
        let decoder = try CodecContext(codec, site)
        try FFmpeg.check(avcodec_parameters_to_context(decoder.pointer, parameters), "avcodec_parameters_to_context",
                         site, .unsupportedCodec, "cannot set up the decoder")
        decoder.pointer.pointee.pkt_timebase = file.stream(index).pointee.time_base
        decoder.pointer.pointee.thread_count = Int32(threads)
        DecodeLimits.apply(to: decoder.pointer)
        FFmpeg.clearLog()
        try FFmpeg.check(avcodec_open2(decoder.pointer, codec, nil), "avcodec_open2", site, .unsupportedCodec,
                         "cannot open the \(String(cString: codec.pointee.name)) decoder")
        return decoder
    }
}
