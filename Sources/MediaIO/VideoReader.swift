internal import CFFmpeg
import MediaTime

/// Returns the frame shown at an exact source time (AVAssetReader + AVAssetImageGenerator):
/// the decoded frame with the greatest presentation time ≤ t (sample and hold).
///
/// Times count from the file's time zero (`MediaInfo.timeZero`: its first video frame). Requests in increasing order
/// decode forward without seeking; a jump back, or more than a second forward past a keyframe,
/// seeks to the keyframe before t and decodes forward. Before the first frame the first frame
/// is shown, after the last the last one (a still image is one frame shown at every time).
/// Use from one thread at a time (it may move between threads, e.g. into a decoding task);
/// the frames it returns may be used anywhere.
///
/// @unchecked: it owns FFmpeg contexts and frames (C pointers); one thread at a time uses it.
public final class VideoReader: @unchecked Sendable {
    public struct Options: Sendable {
        /// Output format; nil keeps the decoder's own (no conversion when `size` is nil too).
        public var pixelFormat: PixelFormat?
        /// Output size in pixels (after turning, when `orientation` is `.display`); nil keeps the size.
        public var size: (width: Int, height: Int)?
        /// Target colour space for YUV output (RGB output is always full range); nil: the source's
        /// (BT.709 limited for RGB sources).
        /// swscale converts the range; a different YUV matrix is tagged but not converted.
        public var colorSpace: ColorSpace?
        public var scaler: Scaler
        /// Multiply colour by alpha in 8-bit `rgba`/`bgra` output (sources with alpha only).
        public var premultipliedAlpha: Bool
        /// `.display` turns frames by the file's rotation (90° steps, exact); `.coded` leaves them.
        public var orientation: Orientation
        /// Decoder threads; 0 lets FFmpeg choose. Decoded pictures are the same for any count.
        public var decoderThreads: Int
        /// Which stream; nil: FFmpeg's best video stream.
        public var stream: Int?
        /// The rate an image sequence (`shot%04d.png`) is read at, its k-th file shown from
        /// k / rate; nil: 25 fps. Other files ignore it.
        public var sequenceRate: Rational?

        public init(pixelFormat: PixelFormat? = nil, size: (width: Int, height: Int)? = nil, colorSpace: ColorSpace? = nil,
                    scaler: Scaler = .bicubic, premultipliedAlpha: Bool = false, orientation: Orientation = .coded,
                    decoderThreads: Int = 0, stream: Int? = nil, sequenceRate: Rational? = nil) {
            self.pixelFormat = pixelFormat
            self.size = size
            self.colorSpace = colorSpace
            self.scaler = scaler
            self.premultipliedAlpha = premultipliedAlpha
            self.orientation = orientation
            self.decoderThreads = decoderThreads
            self.stream = stream
            self.sequenceRate = sequenceRate
        }
    }

    public enum Orientation: Sendable { case coded, display }

    public let info: MediaInfo
    public let streamIndex: Int
    public let options: Options
    private let decoder: StreamDecoder
    private let decoded: Frame
    private let converter: FrameConverter
    private var outputPool: VideoFramePool?
    private var rotationPool: VideoFramePool?
    private let quarterTurns: Int

    /// The frame on screen and the one after it (both decoded, in presentation order).
    private var current: (frame: Frame, time: MediaTime)?
    private var upcoming: (frame: Frame, time: MediaTime)?
    private var spareFrame: Frame?
    /// Decoding started at the stream's very beginning (no earlier frame exists).
    private var decodingFromStart = true
    private var lastOutput: VideoFrame?
    /// One frame's duration from the stream's rate, for frames without a timestamp.
    private let nominalFrameDuration: MediaTime

    /// Seeks so far (tests check that sequential reading never seeks).
    private(set) var seekCount = 0

    /// How far ahead a request must be before a seek can beat decoding forward.
    private static let seekAheadThreshold = MediaTime(seconds: 1)

    public init(path: String, options: Options = Options()) throws {
        let file = try InputFile(path: path, sequenceRate: options.sequenceRate)
        info = try MediaInfo(file)
        let candidates = info.streams.filter { $0.kind == .video && !$0.isAttachedPicture }
        guard let index = options.stream ?? info.bestVideoStream ?? candidates.first?.index else {
            let kinds = info.streams.map(\.kind.rawValue).joined(separator: ", ")
            throw MediaError(.noVideoStream, path: path, "has no video or image stream (it has: \(kinds.isEmpty ? "nothing" : kinds))")
        }
        guard index < info.streams.count, info.streams[index].kind == .video else {
            throw MediaError(.noVideoStream, path: path, "stream \(index) is not a video stream", stream: index)
        }
        streamIndex = index
        self.options = options
        decoder = try StreamDecoder(file: file, stream: index, threads: options.decoderThreads, timeZero: info.timeZero)
        decoded = try Frame(decoder.site)
        converter = FrameConverter(scaler: options.scaler)
        quarterTurns = options.orientation == .display ? (info.streams[index].video?.quarterTurns ?? 0) : 0
        let rate = info.streams[index].video?.averageFrameRate ?? info.streams[index].video?.realFrameRate ?? Rational(25)
        nominalFrameDuration = MediaTime(rate.reciprocal)
    }

    private var path: String { decoder.file.path }

    /// The frame shown at `time` (source time from `info.timeZero`). Throws `MediaError`.
    public func frame(at time: MediaTime) throws -> VideoFrame {
        if let cached = rewound.frame(at: time) { return cached }
        if let current, time < current.time, !info.isStillImage, try rewind(to: time) {
            return rewound.frame(at: time)!
        }
        try position(at: time)
        guard let current else {
            throw MediaError(.decodingFailed, path: path, "no frame could be decoded", stream: streamIndex, time: time)
        }
        if let lastOutput, lastOutput.time == current.time { return lastOutput }
        let output = try convert(current.frame, time: current.time)
        lastOutput = output
        return output
    }

    /// The frames decoded by the last jump back, for the requests that follow it further back.
    private var rewound = RewoundFrames()

    /// A jump back (reverse playback): seeks to the keyframe before `time` and decodes every
    /// frame from there up to the one shown at `time`, keeping the last
    /// `RewoundFrames.capacity` of them, so the next requests further back are answered
    /// without decoding again: a GOP is decoded once however it is read backwards (a longer
    /// one, in pieces of that many frames). False when the seek lands after `time`, or before
    /// the first frame: the ordinary path handles those.
    private func rewind(to time: MediaTime) throws -> Bool {
        try seek(before: time)
        var frames: [VideoFrame] = []
        try advance(to: time) { frame, t in
            frames.append(try self.convert(frame, time: t))
            if frames.count > RewoundFrames.capacity { frames.removeFirst() }
        }
        guard let last = frames.last, last.time <= time, current != nil else { return false }
        lastOutput = last
        rewound = RewoundFrames(frames: frames, end: upcoming?.time)
        return true
    }

    /// Decodes (seeking when that is shorter) until `current` is the frame shown at `time`.
    /// Catching up, the decoder drops frames more than two frames before `time` that no other
    /// frame refers to (for H.264 that is about 40% of the work); should the frame shown at
    /// `time` be one of them (a gap in a variable frame rate), it decodes again, dropping nothing.
    private func position(at time: MediaTime) throws {
        decoder.skipsNonReferenceBefore = time - nominalFrameDuration - nominalFrameDuration
        defer { decoder.skipsNonReferenceBefore = nil }
        try decode(to: time)
        if let skipped = decoder.latestSkippable, current.map({ skipped > $0.time }) ?? true {
            decoder.skipsNonReferenceBefore = nil
            try seek(before: time)
            try decode(to: time)
        }
    }

    private func decode(to time: MediaTime) throws {
        if let current, time < current.time, !decodingFromStart || firstFrameTime.map({ current.time > $0 }) ?? true {
            try seek(before: time)
        } else if try worthSeeking(from: current?.time ?? .zero, to: time) {
            try seek(before: time)
        }
        var backoff = MediaTime(seconds: 1)
        while true {
            try advance(to: time)
            if current != nil || decodingFromStart { break }
            // The seek landed after `time`: go further back.
            try seek(before: time - backoff)
            backoff = backoff + backoff
        }
        if current == nil, let upcoming { // before the first frame: hold the first one
            current = upcoming
            self.upcoming = nil
        }
    }

    /// The first frame seen since decoding from the start (there is none before it); nil when
    /// an earlier one may have been dropped undecoded.
    private var firstFrameTime: MediaTime?

    /// Moves `upcoming` into `current` while it is not after `time`, handing each new
    /// `current` to `each`.
    private func advance(to time: MediaTime, each: ((Frame, MediaTime) throws -> Void)? = nil) throws {
        while true {
            if upcoming == nil { upcoming = try decodeNext() }
            guard let next = upcoming, next.time <= time else { return }
            if let old = current?.frame { spareFrame = old; old.unref() }
            current = next
            upcoming = nil
            try each?(next.frame, next.time)
        }
    }

    /// A seek pays off when the request is well ahead and a keyframe lies between here and there.
    private func worthSeeking(from here: MediaTime, to time: MediaTime) throws -> Bool {
        guard !info.isStillImage, !decoder.drained, time - here > Self.seekAheadThreshold else { return false }
        let stream = decoder.file.stream(streamIndex)
        guard avformat_index_get_entries_count(stream) > 0 else { return true }
        let target = (time + info.timeZero).ticks(timeBase: decoder.timeBase)
        guard let entry = avformat_index_get_entry_from_timestamp(stream, target, AVSEEK_FLAG_BACKWARD) else { return false }
        return decoder.time(ofTicks: entry.pointee.timestamp) > here
    }

    /// Seeks to the keyframe at or before `time` (or the stream's start) and resets decoding.
    private func seek(before time: MediaTime) throws {
        decodingFromStart = try decoder.seek(before: time)
        seekCount += 1
        current = nil
        upcoming = nil
        lastOutput = nil
    }

    /// The next decoded frame in presentation order, or nil at the end of the stream.
    private func decodeNext() throws -> (frame: Frame, time: MediaTime)? {
        guard try decoder.next(into: decoded) else { return nil }
        let frame = try spareFrame ?? Frame(decoder.site)
        spareFrame = nil
        frame.take(decoded)
        let time = frame.presentationTicks.map(decoder.time(ofTicks:))
            ?? (upcoming?.time ?? current?.time).map { $0 + nominalFrameDuration } ?? .zero
        if decodingFromStart, current == nil, upcoming == nil {
            firstFrameTime = decoder.latestSkippable.map { $0 < time } ?? false ? nil : time
        }
        return (frame, time)
    }

    /// The decoded frame in the format, size and orientation asked for.
    private func convert(_ frame: Frame, time: MediaTime) throws -> VideoFrame {
        let source = frame.pointer
        let sourceColor = ColorSpace(of: source)
        let sourceFormat = PixelFormat(AVPixelFormat(rawValue: source.pointee.format))
        let turnedSize = quarterTurns % 2 == 1 ? options.size.map { ($0.height, $0.width) } : options.size
        let width = turnedSize?.0 ?? Int(source.pointee.width), height = turnedSize?.1 ?? Int(source.pointee.height)
        let format = options.pixelFormat ?? sourceFormat
        // YUV from an RGB source (PNG, WebP with alpha…) defaults to Reel's output colour space.
        let targetColor = format.isRGB ? ColorSpace(sourceColor.standard, .full)
            : (options.colorSpace ?? (sourceFormat.isRGB ? .bt709 : sourceColor))
        let needsConversion = format != sourceFormat || width != Int(source.pointee.width)
            || height != Int(source.pointee.height) || targetColor != sourceColor
            || (options.premultipliedAlpha && sourceFormat.hasAlpha)
        var result: VideoFrame
        if needsConversion {
            if outputPool?.width != width || outputPool?.height != height || outputPool?.pixelFormat != format
                || outputPool?.colorSpace != targetColor {
                outputPool = try VideoFramePool(width: width, height: height, pixelFormat: format, colorSpace: targetColor)
            }
            let target = try outputPool!.makeAVFrame()
            try converter.convert(source, sourceColor, into: target.pointer, targetColor,
                                  FFmpegCallSite(path: path, stream: streamIndex, time: time))
            result = VideoFrame(frame: target, time: time, colorSpace: targetColor)
            if options.premultipliedAlpha, sourceFormat.hasAlpha, format == .rgba || format == .bgra {
                result.premultiplyAlpha()
            }
        } else {
            result = try VideoFrame(referencing: frame, time: time, colorSpace: sourceColor)
        }
        if quarterTurns != 0 {
            let (w, h) = quarterTurns % 2 == 1 ? (height, width) : (width, height)
            if rotationPool?.width != w || rotationPool?.height != h || rotationPool?.pixelFormat != format {
                rotationPool = try VideoFramePool(width: w, height: h, pixelFormat: format, colorSpace: result.colorSpace)
            }
            result = try result.rotated(quarterTurns: quarterTurns, into: rotationPool!)
        }
        return result
    }
}
