internal import CFFmpeg
import MediaTime

/// Reads what is in a media file (AVAsset's properties), as `reel probe` prints it.
public enum MediaProbe {
    /// Opens `path`, reads its streams and returns the facts; an image sequence
    /// (`shot%04d.png`) at `sequenceRate` (nil: 25 fps). Throws `MediaError`.
    public static func probe(path: String, sequenceRate: Rational? = nil) throws -> MediaInfo {
        let file = try InputFile(path: path, sequenceRate: sequenceRate)
        return try MediaInfo(file)
    }
}

/// How many video packets the variable-frame-rate check looks at.
private let frameRateSamplePackets = 240

extension MediaInfo {
    init(_ file: InputFile) throws {
        let context = file.context.pointee
        let format = context.iformat.pointee
        let formatName = String(cString: format.name)
        let best = file.bestStream(AVMEDIA_TYPE_VIDEO).flatMap { index -> Int? in
            (file.stream(index).pointee.disposition & AV_DISPOSITION_ATTACHED_PIC) != 0 ? nil : index
        }
        let onlyVideo = file.streamCount == 1 && file.stream(0).pointee.codecpar.pointee.codec_type == AVMEDIA_TYPE_VIDEO
        // One picture: a `*_pipe` image, or one file read by image2 with at most one frame's
        // duration (an image sequence, `%04d`, is a video, even of one file).
        let isStillImage = onlyVideo && !file.isImageSequence
            && (formatName.hasSuffix("_pipe") || (formatName == "image2" && Self.isSinglePicture(file.stream(0))))
        // A still has one picture; reading it to time frames would use it up (image2 cannot
        // rewind a single file), so the reader that comes next would find nothing.
        let variable = isStillImage ? [] : try variableFrameRateStreams(file)
        var streams: [StreamInfo] = []
        for index in 0..<file.streamCount {
            streams.append(StreamInfo(file.stream(index), variableFrameRate: variable.contains(index)))
        }
        var chapters: [Chapter] = []
        for i in 0..<Int(context.nb_chapters) {
            let c = context.chapters[i]!.pointee
            chapters.append(Chapter(id: c.id, start: MediaTime(ticks: c.start, timeBase: c.time_base),
                                    end: MediaTime(ticks: c.end, timeBase: c.time_base),
                                    title: dictionary(c.metadata)["title"]))
        }
        let microsecond = AVRational(num: 1, den: reel_av_time_base())
        let containerStart = MediaTime(ticks: file.startMicroseconds, timeBase: microsecond)
        // An image sequence lasts its file count / its rate exactly: its stream's duration
        // (the container's is rounded to microseconds).
        let duration = file.isImageSequence ? streams.first?.duration
            : context.duration == FFmpeg.noPTS ? nil : MediaTime(ticks: context.duration, timeBase: microsecond)
        self.init(
            path: file.path, format: formatName, formatLongName: name(format.long_name) ?? formatName,
            duration: duration,
            startTime: containerStart, timeZero: best.flatMap { streams[$0].startTime } ?? containerStart,
            bitRate: context.bit_rate > 0 ? Int(context.bit_rate) : nil,
            isStillImage: isStillImage,
            metadata: dictionary(context.metadata), chapters: chapters, streams: streams,
            bestVideoStream: best, bestAudioStream: file.bestStream(AVMEDIA_TYPE_AUDIO))
    }
}

extension MediaInfo {
    /// A stream lasting no more than one frame.
    static func isSinglePicture(_ stream: UnsafeMutablePointer<AVStream>) -> Bool {
        let s = stream.pointee
        guard s.duration != FFmpeg.noPTS, s.duration > 0, s.avg_frame_rate.num > 0 else { return true }
        return MediaTime(ticks: s.duration, timeBase: s.time_base) <= MediaTime(Rational(Int64(s.avg_frame_rate.den), Int64(s.avg_frame_rate.num)))
    }
}

extension StreamInfo {
    init(_ stream: UnsafeMutablePointer<AVStream>, variableFrameRate: Bool) {
        let s = stream.pointee
        let parameters = s.codecpar.pointee
        let kind: StreamKind = switch parameters.codec_type {
        case AVMEDIA_TYPE_VIDEO: .video
        case AVMEDIA_TYPE_AUDIO: .audio
        case AVMEDIA_TYPE_SUBTITLE: .subtitle
        case AVMEDIA_TYPE_DATA: .data
        case AVMEDIA_TYPE_ATTACHMENT: .attachment
        default: .unknown
        }
        let descriptor = avcodec_descriptor_get(parameters.codec_id)
        self.init(
            index: Int(s.index), kind: kind, codec: String(cString: avcodec_get_name(parameters.codec_id)),
            codecLongName: name(descriptor?.pointee.long_name),
            profile: name(avcodec_profile_name(parameters.codec_id, parameters.profile)),
            bitRate: parameters.bit_rate > 0 ? Int(parameters.bit_rate) : nil,
            timeBase: Rational(Int64(s.time_base.num), Int64(s.time_base.den)),
            startTime: s.start_time == FFmpeg.noPTS ? nil : MediaTime(ticks: s.start_time, timeBase: s.time_base),
            duration: s.duration == FFmpeg.noPTS ? nil : MediaTime(ticks: s.duration, timeBase: s.time_base),
            frameCount: s.nb_frames > 0 ? Int(s.nb_frames) : nil,
            isAttachedPicture: (s.disposition & AV_DISPOSITION_ATTACHED_PIC) != 0,
            metadata: dictionary(s.metadata),
            video: kind == .video ? VideoStreamInfo(stream, variableFrameRate: variableFrameRate) : nil,
            audio: kind == .audio ? AudioStreamInfo(parameters) : nil)
    }
}

extension VideoStreamInfo {
    init(_ stream: UnsafeMutablePointer<AVStream>, variableFrameRate: Bool) {
        let s = stream.pointee
        let p = s.codecpar.pointee
        let pixelFormat = AVPixelFormat(rawValue: p.format)
        let descriptor = av_pix_fmt_desc_get(pixelFormat)
        let rotation = displayRotation(stream)
        let turns = rotation.truncatingRemainder(dividingBy: 90) == 0 ? Int(rotation / 90) % 4 : nil
        let sar = Rational(nonZero: p.sample_aspect_ratio) ?? Rational(nonZero: s.sample_aspect_ratio)
        let width = Int(p.width), height = Int(p.height)
        let shownWidth = sar.map { Int((Rational(Int64(width)) * $0).rounded) } ?? width
        let swaps = turns.map { $0 % 2 == 1 } ?? false
        self.init(
            width: width, height: height, sampleAspectRatio: sar,
            displayWidth: swaps ? height : shownWidth, displayHeight: swaps ? shownWidth : height,
            rotation: rotation, quarterTurns: turns,
            averageFrameRate: Rational(nonZero: s.avg_frame_rate), realFrameRate: Rational(nonZero: s.r_frame_rate),
            isVariableFrameRate: variableFrameRate,
            pixelFormat: name(av_get_pix_fmt_name(pixelFormat)) ?? "unknown",
            bitsPerComponent: descriptor.map { Int($0.pointee.comp.0.depth) } ?? 0,
            hasAlpha: descriptor.map { ($0.pointee.flags & UInt64(AV_PIX_FMT_FLAG_ALPHA)) != 0 } ?? false,
            colorRange: p.color_range == AVCOL_RANGE_UNSPECIFIED ? nil : name(av_color_range_name(p.color_range)),
            colorPrimaries: p.color_primaries == AVCOL_PRI_UNSPECIFIED ? nil : name(av_color_primaries_name(p.color_primaries)),
            colorTransfer: p.color_trc == AVCOL_TRC_UNSPECIFIED ? nil : name(av_color_transfer_name(p.color_trc)),
            colorMatrix: p.color_space == AVCOL_SPC_UNSPECIFIED ? nil : name(av_color_space_name(p.color_space)),
            fieldOrder: fieldOrderName(p.field_order))
    }
}

/// Clockwise display rotation in degrees, [0, 360), from the stream's display matrix.
func displayRotation(_ stream: UnsafeMutablePointer<AVStream>) -> Double {
    var size: Int = 0
    guard let data = av_stream_get_side_data(stream, AV_PKT_DATA_DISPLAYMATRIX, &size), size >= 36 else { return 0 }
    let counterclockwise = data.withMemoryRebound(to: Int32.self, capacity: 9) { av_display_rotation_get($0) }
    guard counterclockwise.isFinite else { return 0 }
    var clockwise = (-counterclockwise).truncatingRemainder(dividingBy: 360)
    if clockwise < 0 { clockwise += 360 }
    // The matrix holds 16.16 fixed point: snap values within 1e-6° of a whole degree.
    let whole = clockwise.rounded()
    if abs(clockwise - whole) < 1e-6 { clockwise = whole == 360 ? 0 : whole }
    return clockwise == 0 ? 0 : clockwise
}

private func fieldOrderName(_ order: AVFieldOrder) -> String? {
    switch order {
    case AV_FIELD_PROGRESSIVE: "progressive"
    case AV_FIELD_TT: "tt"
    case AV_FIELD_BB: "bb"
    case AV_FIELD_TB: "tb"
    case AV_FIELD_BT: "bt"
    default: nil
    }
}

extension AudioStreamInfo {
    init(_ p: AVCodecParameters) {
        var layout = p.ch_layout
        let described = withUnsafeTemporaryAllocation(of: CChar.self, capacity: 128) { buffer -> String? in
            av_channel_layout_describe(&layout, buffer.baseAddress, buffer.count) > 0 ? String(cString: buffer.baseAddress!) : nil
        }
        self.init(sampleRate: Int(p.sample_rate), channels: Int(p.ch_layout.nb_channels),
                  channelLayout: described ?? "\(p.ch_layout.nb_channels) channels",
                  sampleFormat: name(av_get_sample_fmt_name(AVSampleFormat(rawValue: p.format))) ?? "unknown")
    }
}

/// Streams whose frame durations differ: reads the first packets' timestamps (at most
/// `frameRateSamplePackets` per video stream), sorts them and compares the gaps. A spread of one
/// tick is allowed for containers that round times (Matroska's milliseconds).
private func variableFrameRateStreams(_ file: InputFile) throws -> Set<Int> {
    var timestamps: [Int: [Int64]] = [:]
    for index in 0..<file.streamCount {
        let s = file.stream(index).pointee
        if s.codecpar.pointee.codec_type == AVMEDIA_TYPE_VIDEO, (s.disposition & AV_DISPOSITION_ATTACHED_PIC) == 0 {
            timestamps[index] = []
        }
    }
    guard !timestamps.isEmpty else { return [] }
    let packet = try Packet(FFmpegCallSite(path: file.path))
    var packetsRead = 0
    while packetsRead < frameRateSamplePackets * (file.streamCount + 1),
          timestamps.values.contains(where: { $0.count < frameRateSamplePackets }),
          (try? file.read(into: packet)) == true {
        defer { packet.unref() }
        packetsRead += 1
        let p = packet.pointer.pointee
        if p.pts != FFmpeg.noPTS, timestamps[Int(p.stream_index)] != nil { timestamps[Int(p.stream_index)]!.append(p.pts) }
    }
    try file.rewind() // for whoever reads the file next
    var result: Set<Int> = []
    for (index, values) in timestamps where values.count >= 3 {
        // Packets come in decode order: the last few (B-frame reordering) may leave holes at the end.
        let sorted = values.sorted().dropLast(values.count > 16 ? 8 : 0)
        let gaps = zip(sorted.dropFirst(), sorted).map { $0 - $1 }
        if let low = gaps.min(), let high = gaps.max(), high - low > 1 { result.insert(index) }
    }
    return result
}
