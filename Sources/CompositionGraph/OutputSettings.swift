import MediaFormat
import MediaTime

/// What the export writes: container, codecs and their settings (AVAssetExportSession's
/// output file type and preset, spelled out).
public struct OutputSettings: Hashable, Sendable, Codable {
    public struct Video: Hashable, Sendable, Codable {
        public var codec: VideoCodec
        /// Constant rate factor; nil when a bit rate is given.
        public var crf: Int?
        /// Bits per second.
        public var bitrate: Int?
        /// Encoder speed preset (`veryfast`, `medium`, …), as the encoder names it.
        public var preset: String?
        /// FFmpeg pixel format name, e.g. `yuv420p`.
        public var pixelFormat: String
        /// Keyframe interval in frames; nil lets the encoder choose.
        public var gopSize: Int?

        public init(codec: VideoCodec, crf: Int?, bitrate: Int?, preset: String?, pixelFormat: String, gopSize: Int? = nil) {
            self.codec = codec
            self.crf = crf
            self.bitrate = bitrate
            self.preset = preset
            self.pixelFormat = pixelFormat
            self.gopSize = gopSize
        }
    }

    public struct Audio: Hashable, Sendable, Codable {
        public var codec: AudioCodec
        public var bitrate: Int?
        public var sampleRate: Int
        public var channels: Int
        /// Normalize the mix to this loudness (`output.audio.loudness`); nil: the mix as it is.
        public var loudness: LoudnessTarget?

        public init(codec: AudioCodec, bitrate: Int?, sampleRate: Int, channels: Int, loudness: LoudnessTarget? = nil) {
            self.codec = codec
            self.bitrate = bitrate
            self.sampleRate = sampleRate
            self.channels = channels
            self.loudness = loudness
        }
    }

    /// Where the project asks the output to go (absolute), if it says; `-o` overrides it.
    public var path: String?
    /// nil: from the output file's extension.
    public var container: Container?
    /// nil: the output holds audio only (an audio-only container, a project without video,
    /// `--audio-only`); the video is not rendered.
    public var video: Video?
    public var audio: Audio
    public var faststart: Bool
    /// Container metadata, sorted by key when written.
    public var metadata: [String: String]
    /// How long the segments are that the video is rendered in, each on its own and joined
    /// without re-encoding (rounded to whole frames).
    public var segmentLength: MediaTime = OutputSettings.defaultSegmentLength

    /// A GIF's caps (`output.gif`): the render is made at most this wide and at most this
    /// frame rate, so a GIF is a sane preview; nil for every other output.
    public var gifLimits: GIFLimits?

    public static let defaultSegmentLength = MediaTime(seconds: 2)

    public init(path: String?, container: Container?, video: Video?, audio: Audio, faststart: Bool, metadata: [String: String]) {
        self.path = path
        self.container = container
        self.video = video
        self.audio = audio
        self.faststart = faststart
        self.metadata = metadata
    }
}

/// Loudness normalization (EBU R128 / ITU-R BS.1770): the whole mix is measured first, then
/// played with one static gain that brings its integrated loudness to `integrated`, and a
/// true-peak limiter that keeps it at or below `truePeak`.
public struct LoudnessTarget: Hashable, Sendable, Codable {
    /// Integrated loudness, LUFS (e.g. -14 for streaming, -23 for EBU R128 broadcast).
    public var integrated: Double
    /// The highest true peak allowed, dBTP (e.g. -1).
    public var truePeak: Double

    public init(integrated: Double, truePeak: Double) {
        self.integrated = integrated
        self.truePeak = truePeak
    }
}

/// The most a GIF is made: width in pixels (the height follows the aspect ratio, even) and
/// frames per second.
public struct GIFLimits: Hashable, Sendable, Codable {
    public var maxWidth: Int
    public var maxFrameRate: Rational

    /// 480 pixels wide, 15 frames a second.
    public static let standard = GIFLimits(maxWidth: 480, maxFrameRate: Rational(15))

    public init(maxWidth: Int, maxFrameRate: Rational) {
        self.maxWidth = maxWidth
        self.maxFrameRate = maxFrameRate
    }
}
