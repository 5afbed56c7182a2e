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

        public init(codec: AudioCodec, bitrate: Int?, sampleRate: Int, channels: Int) {
            self.codec = codec
            self.bitrate = bitrate
            self.sampleRate = sampleRate
            self.channels = channels
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

    public static let defaultSegmentLength = MediaTime(seconds: 5)

    public init(path: String?, container: Container?, video: Video?, audio: Audio, faststart: Bool, metadata: [String: String]) {
        self.path = path
        self.container = container
        self.video = video
        self.audio = audio
        self.faststart = faststart
        self.metadata = metadata
    }
}
