import AtomicFiles
internal import CFFmpeg
import Foundation
import MediaTime

/// Encodes and muxes a file (AVAssetWriter). Writes to a hidden temporary file in the same
/// folder (`PartialFile`: `.NAME.partial`, locked while written) and renames it into place in
/// `finish()`; `cancel()`, a failure or releasing the writer unfinished removes the temporary
/// file and leaves any existing file at `path` untouched. A temporary file a killed writer left
/// is taken over; one a live writer holds makes `init` fail (another process writes `path`).
///
/// The bytes depend only on the frames, samples and settings: bit-exact muxer and encoder flags,
/// no creation time or encoder version strings (x264's SEI is stripped, x265's is off), and a
/// fixed encoder thread count. Use from one thread at a time.
///
/// @unchecked: it owns FFmpeg's muxer and encoders (C pointers); one thread at a time uses it.
public final class MediaWriter: @unchecked Sendable {
    public let path: String
    public let settings: WriterSettings
    private let partial: PartialFile?
    private let context: UnsafeMutablePointer<AVFormatContext>
    private let video: (encoder: VideoEncoder, stream: UnsafeMutablePointer<AVStream>)?
    private let audio: (encoder: AudioEncoder, stream: UnsafeMutablePointer<AVStream>)?
    private let site: FFmpegCallSite
    private var state: State = .writing
    private var nextVideoIndex: Int64 = 0
    /// Video comes as packets encoded elsewhere (`VideoPacketEncoder`), not as frames.
    private let takesEncodedVideo: Bool
    /// Audio comes as packets encoded elsewhere (`AudioPacketEncoder`), not as samples.
    private let takesEncodedAudio: Bool
    /// Added to audio timestamps (in samples): Matroska stores Opus from its first packet at 0
    /// and signals the pre-skip as CodecDelay, which readers subtract.
    private let audioShift: Int64

    private enum State { case writing, finished, cancelled }
    private enum Target { case file(PartialFile), memory }

    /// Validates `settings` as a writer would use them (encoders exist, the container holds the
    /// codecs, formats and rates are accepted, the encoders open, the header can be written)
    /// without writing any file. Throws `MediaError`.
    public static func check(_ settings: WriterSettings, path: String = "output") throws {
        _ = try MediaWriter(path: path, settings: settings, target: .memory)
    }

    /// Starts writing `path` (via a temporary file beside it). With `encodedVideo`, the video
    /// comes as packets a `VideoPacketEncoder` with the same settings made (`append(encoded:)`),
    /// not as frames; with `encodedAudio`, the audio as packets of an `AudioPacketEncoder`
    /// (`append(encodedAudio:)`). Throws `MediaError`.
    public convenience init(path: String, settings: WriterSettings, encodedVideo: Bool = false, encodedAudio: Bool = false) throws {
        let partial: PartialFile
        do { partial = try PartialFile(output: path) } catch { throw MediaError(error) }
        try self.init(path: path, settings: settings, target: .file(partial), encodedVideo: encodedVideo, encodedAudio: encodedAudio)
    }

    private init(path: String, settings: WriterSettings, target: Target, encodedVideo: Bool = false, encodedAudio: Bool = false) throws {
        let site = FFmpegCallSite(path: path)
        guard settings.video != nil || settings.audio != nil else {
            throw MediaError(.unsupportedSettings, path: path, "nothing to write: neither video nor audio settings given")
        }
        var pointer: UnsafeMutablePointer<AVFormatContext>? = nil
        try FFmpeg.check(avformat_alloc_output_context2(&pointer, nil, settings.container.muxerName, nil),
                         "avformat_alloc_output_context2", site, .unsupportedSettings,
                         "this FFmpeg build cannot write \(settings.container.rawValue) files")
        let context = pointer!
        do {
            context.pointee.flags |= AVFMT_FLAG_BITEXACT
            let format = context.pointee.oformat!
            let videoEncoder = try settings.video.map { try VideoEncoder($0, container: settings.container, format: format, path: path) }
            let audioEncoder = try settings.audio.map { try AudioEncoder($0, container: settings.container, format: format, path: path) }
            video = try videoEncoder.map { ($0, try Self.addStream(context, $0.context, site)) }
            audio = try audioEncoder.map { ($0, try Self.addStream(context, $0.context, site)) }
            for (key, value) in settings.metadata.sorted(by: { $0.key < $1.key }) {
                try FFmpeg.check(av_dict_set(&context.pointee.metadata, key, value, 0), "av_dict_set", site, .outOfMemory, "cannot set metadata")
            }
            switch target {
            case .file(let partial):
                context.pointee.url = av_strdup(partial.path) // faststart re-opens the file by this name
                try FFmpeg.check(avio_open(&context.pointee.pb, partial.path, AVIO_FLAG_WRITE), "avio_open", site, .writingFailed,
                                 "cannot create the file (is the folder there and writable?)")
            case .memory:
                try FFmpeg.check(avio_open_dyn_buf(&context.pointee.pb), "avio_open_dyn_buf", site, .outOfMemory, "cannot make a buffer")
            }
        } catch {
            avformat_free_context(context)
            throw error
        }
        self.path = path
        self.settings = settings
        self.site = site
        takesEncodedVideo = encodedVideo
        takesEncodedAudio = encodedAudio
        self.context = context
        let matroska = settings.container == .mkv || settings.container == .webm
        audioShift = matroska && settings.audio?.codec == .opus
            ? Int64(audio?.encoder.context.pointer.pointee.initial_padding ?? 0) : 0
        if case .file(let file) = target { partial = file } else { partial = nil }
        try failing {
            var options: OpaquePointer? = nil
            defer { av_dict_free(&options) }
            let isoMedia = [.mp4, .mov, .m4a].contains(settings.container)
            if settings.fragmented, isoMedia {
                av_dict_set(&options, "movflags", "+frag_keyframe+empty_moov+default_base_moof", 0)
            } else if settings.faststart, isoMedia {
                av_dict_set(&options, "movflags", "+faststart", 0)
            }
            // Animations loop forever (GIF's default already; APNG's is to play once).
            if settings.container == .gif { av_dict_set(&options, "loop", "0", 0) }
            if settings.container == .apng { av_dict_set(&options, "plays", "0", 0) }
            if isoMedia, settings.audio?.codec == .flac {
                // FFmpeg 5 calls FLAC in MP4 experimental; it writes the FLAC-in-ISOBMFF
                // mapping that browsers and FFmpeg itself read.
                context.pointee.strict_std_compliance = FF_COMPLIANCE_EXPERIMENTAL
            }
            FFmpeg.clearLog()
            try FFmpeg.check(avformat_write_header(context, &options), "avformat_write_header", site, .unsupportedSettings,
                             "cannot start a \(settings.container.rawValue) file with these streams")
        }
        if case .memory = target { cancel() }
    }

    deinit {
        if state == .writing { cancel() }
    }

    private static func addStream(_ context: UnsafeMutablePointer<AVFormatContext>, _ encoder: CodecContext,
                                  _ site: FFmpegCallSite) throws -> UnsafeMutablePointer<AVStream> {
        let stream = try FFmpeg.allocated(avformat_new_stream(context, nil), "avformat_new_stream", site)
        try FFmpeg.check(avcodec_parameters_from_context(stream.pointee.codecpar, encoder.pointer),
                         "avcodec_parameters_from_context", site, .encodingFailed, "cannot describe the stream")
        stream.pointee.time_base = encoder.pointer.pointee.time_base
        return stream
    }

    /// Encodes `frame` as video frame `index` (at index / frameRate). Indices must increase by
    /// one from 0. A frame of another size, format or colour space is converted (swscale).
    public func append(video frame: VideoFrame, at index: Int64) throws {
        guard state == .writing else { throw notWriting() }
        guard let video, !takesEncodedVideo else { throw MediaError(.invalidArgument, path: path, "this writer takes no video frames") }
        guard index == nextVideoIndex else {
            throw MediaError(.invalidArgument, path: path, "video frame \(index) given where frame \(nextVideoIndex) is next")
        }
        try failing { try video.encoder.encode(frame, index: index) { try write($0, video.encoder.context, video.stream) } }
        nextVideoIndex += 1
    }

    /// The video stream's global header, which encoded packets given to `append(encoded:)`
    /// must have been made with.
    public var videoExtradata: [UInt8] { video?.encoder.extradata ?? [] }

    /// Writes a video packet encoded elsewhere, `offset` frames later than its own times (the
    /// first frame of its piece), with its side data (VP9's alpha). Packets must come in decode order.
    public func append(encoded packet: EncodedPacket, offset: Int64) throws {
        guard state == .writing else { throw notWriting() }
        guard let video, takesEncodedVideo else { throw MediaError(.invalidArgument, path: path, "this writer takes video frames, not packets") }
        try failing {
            let copy = try Packet(site)
            try FFmpeg.check(av_new_packet(copy.pointer, Int32(packet.data.count)), "av_new_packet", site, .outOfMemory, "cannot make a packet")
            packet.data.withUnsafeBufferPointer { bytes in
                if let base = bytes.baseAddress { copy.pointer.pointee.data.update(from: base, count: bytes.count) }
            }
            copy.pointer.pointee.pts = packet.pts + offset
            copy.pointer.pointee.dts = packet.dts + offset
            if packet.isKeyframe { copy.pointer.pointee.flags |= AV_PKT_FLAG_KEY }
            if !packet.blockAdditional.isEmpty {
                let side = try FFmpeg.allocated(av_packet_new_side_data(copy.pointer, AV_PKT_DATA_MATROSKA_BLOCKADDITIONAL, packet.blockAdditional.count),
                                                "av_packet_new_side_data", site)
                side.update(from: packet.blockAdditional, count: packet.blockAdditional.count)
            }
            try write(copy, video.encoder.context, video.stream)
        }
    }

    /// Encodes interleaved Float32 samples at the audio settings' rate and channel count,
    /// continuing where the last call stopped (the first sample is at time 0). Hand audio over
    /// alongside the video (about a frame's worth per frame): the muxer holds packets until
    /// every stream has reached their time, so one stream far ahead costs memory.
    public func append(audio samples: UnsafeBufferPointer<Float>) throws {
        guard state == .writing else { throw notWriting() }
        guard let audio, !takesEncodedAudio else { throw MediaError(.invalidArgument, path: path, "this writer takes no audio samples") }
        try failing { try audio.encoder.append(samples) { try write($0, audio.encoder.context, audio.stream, shift: audioShift) } }
    }

    /// Writes an audio packet an `AudioPacketEncoder` with the same settings made. Packets
    /// must come in the order the encoder gave them.
    public func append(encodedAudio packet: EncodedAudioPacket) throws {
        guard state == .writing else { throw notWriting() }
        guard let audio, takesEncodedAudio else { throw MediaError(.invalidArgument, path: path, "this writer takes audio samples, not packets") }
        try failing { try write(packet.packet, audio.encoder.context, audio.stream, shift: audioShift) }
    }

    public func append(audio samples: [Float]) throws {
        try samples.withUnsafeBufferPointer { try append(audio: $0) }
    }

    /// Flushes the encoders, writes the trailer (and the faststart move) and renames the file
    /// into place. Throws `MediaError`; on failure the temporary file is removed.
    public func finish() throws {
        guard state == .writing else { throw notWriting() }
        try failing {
            if let video, !takesEncodedVideo { try video.encoder.flush { try write($0, video.encoder.context, video.stream) } }
            if let audio, !takesEncodedAudio { try audio.encoder.flush { try write($0, audio.encoder.context, audio.stream, shift: audioShift) } }
            try FFmpeg.check(av_write_trailer(context), "av_write_trailer", site, .writingFailed, "cannot finish the file")
        }
        state = .finished
        close(removing: false)
        do { try partial?.commit() } catch { throw MediaError(error) }
    }

    /// Stops writing and removes the temporary file. Safe to call more than once.
    public func cancel() {
        guard state == .writing else { return }
        state = .cancelled
        close(removing: true)
    }

    /// Runs `body`; on an error cancels (removing the temporary file) and rethrows.
    private func failing(_ body: () throws -> Void) throws {
        do { try body() } catch {
            cancel()
            throw error
        }
    }

    private func notWriting() -> MediaError {
        MediaError(.invalidArgument, path: path, state == .finished ? "the file is already finished" : "writing was cancelled")
    }

    /// Shifts a packet by `shift` ticks, rescales it from its encoder's time base to its
    /// stream's and hands it to the muxer, which interleaves the streams by time (`av_interleaved_write_frame`).
    private func write(_ packet: Packet, _ encoder: CodecContext, _ stream: UnsafeMutablePointer<AVStream>,
                       shift: Int64 = 0) throws {
        packet.pointer.pointee.pts += shift
        packet.pointer.pointee.dts += shift
        if packet.pointer.pointee.duration == 0, encoder.pointer.pointee.codec_type == AVMEDIA_TYPE_VIDEO {
            packet.pointer.pointee.duration = 1 // one frame: else MP4 edit lists cut the last frame
        }
        av_packet_rescale_ts(packet.pointer, encoder.pointer.pointee.time_base, stream.pointee.time_base)
        packet.pointer.pointee.stream_index = stream.pointee.index
        try FFmpeg.check(av_interleaved_write_frame(context, packet.pointer), "av_interleaved_write_frame", site,
                         .writingFailed, "cannot write to the file (disk full?)")
    }

    /// Closes the output (freeing a memory buffer) and frees the context; with `removing`, removes
    /// the temporary file.
    private func close(removing: Bool) {
        if partial == nil {
            var buffer: UnsafeMutablePointer<UInt8>? = nil
            _ = avio_close_dyn_buf(context.pointee.pb, &buffer)
            av_free(buffer)
            context.pointee.pb = nil
        } else {
            avio_closep(&context.pointee.pb)
        }
        avformat_free_context(context)
        if removing { partial?.discard() }
    }
}
