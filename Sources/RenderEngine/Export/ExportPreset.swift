import CompositionGraph
import MediaFormat
import MediaTime

/// AVAssetExportSession-style presets, each a fixed set of explicit settings that replace
/// the project's (see docs/render.md for the table).
public enum ExportPreset: String, CaseIterable, Sendable {
    case p1080 = "1080p"
    case p720 = "720p"
    case p480 = "480p"
    case highest
    case medium
    case low
    /// Small and fast, for a quick look.
    case preview

    /// What a preset sets; also made directly for settings no preset names (a preview's).
    public struct Settings: Equatable, Sendable {
        /// The output's short side in pixels (its height, or a portrait frame's width; the other
        /// side follows the project's aspect ratio, even); nil keeps the size.
        public var shortSide: Int?
        /// Divide the project's size by this (for `low`), when `shortSide` is nil.
        public var divisor: Int
        /// Longest frame duration allowed (a lower frame rate), nil keeps the project's.
        public var maxFrameRate: Rational?
        public var crf: Int
        public var encoderPreset: String
        public var audioCodec: AudioCodec
        /// Bits per second of a lossy audio codec.
        public var audioBitrate: Int?

        public init(shortSide: Int?, divisor: Int = 1, maxFrameRate: Rational?, crf: Int, encoderPreset: String,
                    audioCodec: AudioCodec = .aac, audioBitrate: Int?) {
            self.shortSide = shortSide
            self.divisor = divisor
            self.maxFrameRate = maxFrameRate
            self.crf = crf
            self.encoderPreset = encoderPreset
            self.audioCodec = audioCodec
            self.audioBitrate = audioBitrate
        }

        /// The graph with these settings: H.264 at this quality (the container's own video codec
        /// when it holds no H.264: VP9 in WebM; with alpha, the container's first codec that keeps
        /// it, as the project decoder chose), the audio codec (else the container's), the frame
        /// rate capped, and when the size changes, every position and pixel size scaled to it.
        public func apply(to graph: CompositionGraph) -> CompositionGraph {
            var g = graph
            let container = graph.output.container ?? .mp4
            if let video = graph.output.video, graph.keepsAlpha {
                // The codec, pixel format and ProRes profile that keep alpha stay; the quality is the preset's.
                g.output.video?.crf = video.codec.defaultCRF == nil ? nil : crf
                g.output.video?.bitrate = nil
            } else if let video = graph.output.video, let codec = container.videoCodecs.contains(.h264) ? .h264 : container.videoCodecs.first {
                // The presets' speed names are x264's; another encoder keeps its own default.
                g.output.video = OutputSettings.Video(codec: codec, crf: crf, bitrate: nil, preset: codec == .h264 ? encoderPreset : nil,
                                                      pixelFormat: codec.defaultPixelFormat, gopSize: video.gopSize)
            }
            // A picture file (GIF, APNG, sequences) has no audio codec: its audio is never written.
            let audio = container.audioCodecs.contains(audioCodec) ? audioCodec : container.audioCodecs.first ?? audioCodec
            g.output.audio = OutputSettings.Audio(codec: audio, bitrate: audio.defaultBitrate == nil ? nil : audioBitrate,
                                                  sampleRate: graph.output.audio.sampleRate, channels: graph.output.audio.channels)
            if let maxFrameRate {
                let longest = MediaTime(maxFrameRate.reciprocal)
                if g.videoComposition.frameDuration < longest { g.videoComposition.frameDuration = longest }
            }
            let size = graph.videoComposition.renderSize
            let short = min(size.width, size.height)
            let target = self.shortSide ?? short / divisor
            guard target != short else { return g }
            let evenTarget = 2 * ((target + 1) / 2)
            func scaled(_ side: Int) -> Int { 2 * Int((Double(side) * Double(target) / Double(short) / 2).rounded()) }
            return g.resized(to: size.width < size.height ? PixelSize(width: evenTarget, height: scaled(size.height))
                                                          : PixelSize(width: scaled(size.width), height: evenTarget))
        }
    }

    public var settings: Settings {
        switch self {
        case .p1080: Settings(shortSide: 1080, divisor: 1, maxFrameRate: nil, crf: 20, encoderPreset: "medium", audioBitrate: 192_000)
        case .p720: Settings(shortSide: 720, divisor: 1, maxFrameRate: nil, crf: 21, encoderPreset: "medium", audioBitrate: 160_000)
        case .p480: Settings(shortSide: 480, divisor: 1, maxFrameRate: nil, crf: 23, encoderPreset: "medium", audioBitrate: 128_000)
        case .highest: Settings(shortSide: nil, divisor: 1, maxFrameRate: nil, crf: 16, encoderPreset: "slow", audioBitrate: 256_000)
        case .medium: Settings(shortSide: nil, divisor: 1, maxFrameRate: nil, crf: 23, encoderPreset: "medium", audioBitrate: 128_000)
        case .low: Settings(shortSide: nil, divisor: 2, maxFrameRate: nil, crf: 28, encoderPreset: "veryfast", audioBitrate: 96_000)
        case .preview: Settings(shortSide: 360, divisor: 1, maxFrameRate: Rational(15), crf: 30, encoderPreset: "ultrafast", audioBitrate: 96_000)
        }
    }

    /// The graph with the preset applied: H.264 + AAC at the preset's quality, and when the
    /// preset changes the size, every position and pixel size scaled to the new size.
    public func apply(to graph: CompositionGraph) -> CompositionGraph { settings.apply(to: graph) }
}
