import MediaTime

/// What is in a media file (AVAsset): the container and its streams, with exact times.
/// Encodes to JSON with rationals as exact text (`"1001/30000"`).
public struct MediaInfo: Codable, Sendable, Equatable {
    public var path: String
    /// FFmpeg's demuxer name(s), e.g. `mov,mp4,m4a,3gp,3g2,mj2`.
    public var format: String
    public var formatLongName: String
    /// The container's duration (exact microseconds as FFmpeg keeps it), if it says; an image
    /// sequence's is exactly its file count / its rate.
    public var duration: MediaTime?
    /// The container's first timestamp (ffprobe's `start_time`).
    public var startTime: MediaTime
    /// Source time 0 for readers, as an absolute timestamp: the main video stream's first
    /// timestamp (so frame 0 is at 0 whatever the container did: MPEG-TS offsets, audio
    /// pre-roll that Matroska keeps before the video), else the container's start. Every stream
    /// is read against this same zero, so audio keeps its offset against video.
    public var timeZero: MediaTime
    /// Bits per second, if known.
    public var bitRate: Int?
    /// A single picture (PNG, JPEG, WebP, …): a reader shows it at every time.
    public var isStillImage: Bool
    public var metadata: [String: String]
    public var chapters: [Chapter]
    public var streams: [StreamInfo]

    /// The stream FFmpeg picks as the main video (cover art excluded), if any.
    public var bestVideoStream: Int?
    /// The stream FFmpeg picks as the main audio, if any.
    public var bestAudioStream: Int?

    public var video: StreamInfo? { bestVideoStream.map { streams[$0] } }
    public var audio: StreamInfo? { bestAudioStream.map { streams[$0] } }

    /// The start timecode a camera or editor wrote (`01:00:00:00`): the container's
    /// `timecode` tag, else the first stream's (a MOV/MP4 timecode track carries it).
    public var startTimecode: String? { metadata["timecode"] ?? streams.lazy.compactMap { $0.metadata["timecode"] }.first }

    public struct Chapter: Codable, Sendable, Equatable {
        public var id: Int64
        public var start: MediaTime
        public var end: MediaTime
        public var title: String?
    }
}

public enum StreamKind: String, Codable, Sendable, Equatable {
    case video, audio, subtitle, data, attachment, unknown
}

/// One stream of a file (AVAssetTrack).
public struct StreamInfo: Codable, Sendable, Equatable {
    public var index: Int
    public var kind: StreamKind
    /// FFmpeg's codec name (`h264`, `aac`, `png`, …); `none` when FFmpeg does not know it.
    public var codec: String
    public var codecLongName: String?
    public var profile: String?
    public var bitRate: Int?
    public var timeBase: Rational
    /// First timestamp (absolute, like ffprobe's `start_time`).
    public var startTime: MediaTime?
    public var duration: MediaTime?
    /// Number of frames when the container says.
    public var frameCount: Int?
    /// Cover art and similar single pictures attached to an audio file.
    public var isAttachedPicture: Bool
    public var metadata: [String: String]
    public var video: VideoStreamInfo?
    public var audio: AudioStreamInfo?
}

public struct VideoStreamInfo: Codable, Sendable, Equatable {
    /// Size of the coded pictures (what a reader returns before any rotation).
    public var width: Int
    public var height: Int
    public var sampleAspectRatio: Rational?
    /// Size to show after applying the sample aspect ratio (to the width) and the rotation.
    public var displayWidth: Int
    public var displayHeight: Int
    /// Clockwise degrees to turn the picture for display, in [0, 360), from the display matrix.
    public var rotation: Double
    /// `rotation` in quarter turns clockwise (0…3), or nil when it is not a multiple of 90°.
    public var quarterTurns: Int?
    /// `avg_frame_rate`: frames over duration.
    public var averageFrameRate: Rational?
    /// `r_frame_rate`: the lowest rate that represents all timestamps.
    public var realFrameRate: Rational?
    /// True when frame durations differ (checked over the first frames' timestamps).
    public var isVariableFrameRate: Bool
    public var pixelFormat: String
    public var bitsPerComponent: Int
    public var hasAlpha: Bool
    /// `tv` (limited) or `pc` (full); nil when the file does not say.
    public var colorRange: String?
    public var colorPrimaries: String?
    public var colorTransfer: String?
    public var colorMatrix: String?
    /// `progressive`, `tt`, `bb`, `tb`, `bt`; nil when unknown.
    public var fieldOrder: String?
}

public struct AudioStreamInfo: Codable, Sendable, Equatable {
    public var sampleRate: Int
    public var channels: Int
    /// FFmpeg's layout description: `mono`, `stereo`, `5.1(side)`, `6 channels`, …
    public var channelLayout: String
    public var sampleFormat: String
}
