import MediaFormat
import MediaTime

/// What `MediaWriter` writes: container, codecs and their settings, all explicit.
public struct WriterSettings: Hashable, Sendable, Codable {
    public enum Quality: Hashable, Sendable, Codable {
        /// Constant rate factor (x264/x265/VP9/AV1; ProRes ignores it and uses its profile).
        case crf(Int)
        /// Average bits per second.
        case bitrate(Int)
    }

    public struct Video: Hashable, Sendable, Codable {
        public var codec: VideoCodec
        public var width: Int
        public var height: Int
        /// Frames per second; frame n is at n / frameRate.
        public var frameRate: Rational
        public var quality: Quality
        /// The encoder's speed preset as it names them (`veryfast`, `medium` for x264/x265; `good`,
        /// `realtime` for VP9; 0–13 for SVT-AV1; `proxy`, `lt`, `standard`, `hq`, `4444` for ProRes).
        public var preset: String?
        public var pixelFormat: PixelFormat
        /// Keyframe interval in frames; nil lets the encoder choose.
        public var gopSize: Int?
        /// Matrix, primaries, transfer and range written into the stream (BT.709 limited by default).
        public var colorSpace: ColorSpace
        /// Encoder threads: fixed (not the machine's core count) so the bytes are the same everywhere.
        public var threads: Int

        public init(codec: VideoCodec, width: Int, height: Int, frameRate: Rational, quality: Quality = .crf(20),
                    preset: String? = nil, pixelFormat: PixelFormat = .yuv420p, gopSize: Int? = nil,
                    colorSpace: ColorSpace = .bt709, threads: Int = 4) {
            self.codec = codec
            self.width = width
            self.height = height
            self.frameRate = frameRate
            self.quality = quality
            self.preset = preset
            self.pixelFormat = pixelFormat
            self.gopSize = gopSize
            self.colorSpace = colorSpace
            self.threads = threads
        }
    }

    public struct Audio: Hashable, Sendable, Codable {
        public var codec: AudioCodec
        public var sampleRate: Int
        public var channels: Int
        /// Bits per second for lossy codecs; nil: the encoder's default.
        public var bitrate: Int?

        public init(codec: AudioCodec, sampleRate: Int = 48000, channels: Int = 2, bitrate: Int? = nil) {
            self.codec = codec
            self.sampleRate = sampleRate
            self.channels = channels
            self.bitrate = bitrate
        }
    }

    public var container: Container
    public var video: Video?
    public var audio: Audio?
    /// Put the index (moov) first in MP4/MOV so playback can start before the download ends.
    public var faststart: Bool
    /// Write MP4/MOV as fragments (an empty moov first, a moof + mdat from each keyframe, offsets
    /// from each moof), the form Media Source Extensions players take piece by piece. Wins over
    /// `faststart`.
    public var fragmented: Bool
    /// Container metadata (title, comment, …), written sorted by key.
    public var metadata: [String: String]

    public init(container: Container, video: Video?, audio: Audio?, faststart: Bool = false, fragmented: Bool = false,
                metadata: [String: String] = [:]) {
        self.container = container
        self.video = video
        self.audio = audio
        self.faststart = faststart
        self.fragmented = fragmented
        self.metadata = metadata
    }
}

extension WriterSettings.Video {
    /// `160x120 at 25 fps, crf 20, preset veryfast, yuv420p, GOP 12`: for messages.
    var summary: String {
        var parts = ["\(width)x\(height) at \(frameRate) fps"]
        switch quality {
        case .crf(let crf): parts.append("crf \(crf)")
        case .bitrate(let bps): parts.append("\(bps) b/s")
        }
        if let preset { parts.append("preset \(preset)") }
        parts.append(pixelFormat.name)
        if let gopSize { parts.append("GOP \(gopSize)") }
        return parts.joined(separator: ", ")
    }
}
