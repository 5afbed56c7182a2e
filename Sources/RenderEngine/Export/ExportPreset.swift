import CompositionGraph
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

    /// What the preset sets.
    public struct Settings: Equatable, Sendable {
        /// Output height in pixels (width follows the project's aspect ratio, even); nil keeps the size.
        public var height: Int?
        /// Divide the project's size by this (for `low`), when `height` is nil.
        public var divisor: Int
        /// Longest frame duration allowed (a lower frame rate), nil keeps the project's.
        public var maxFrameRate: Rational?
        public var crf: Int
        public var encoderPreset: String
        public var audioBitrate: Int
    }

    public var settings: Settings {
        switch self {
        case .p1080: Settings(height: 1080, divisor: 1, maxFrameRate: nil, crf: 20, encoderPreset: "medium", audioBitrate: 192_000)
        case .p720: Settings(height: 720, divisor: 1, maxFrameRate: nil, crf: 21, encoderPreset: "medium", audioBitrate: 160_000)
        case .p480: Settings(height: 480, divisor: 1, maxFrameRate: nil, crf: 23, encoderPreset: "medium", audioBitrate: 128_000)
        case .highest: Settings(height: nil, divisor: 1, maxFrameRate: nil, crf: 16, encoderPreset: "slow", audioBitrate: 256_000)
        case .medium: Settings(height: nil, divisor: 1, maxFrameRate: nil, crf: 23, encoderPreset: "medium", audioBitrate: 128_000)
        case .low: Settings(height: nil, divisor: 2, maxFrameRate: nil, crf: 28, encoderPreset: "veryfast", audioBitrate: 96_000)
        case .preview: Settings(height: 360, divisor: 1, maxFrameRate: Rational(15), crf: 30, encoderPreset: "ultrafast", audioBitrate: 96_000)
        }
    }

    /// The graph with the preset applied: H.264 + AAC at the preset's quality in the container
    /// the output's extension names, and when the
    /// preset changes the size, every position and pixel size scaled to the new size.
    public func apply(to graph: CompositionGraph) -> CompositionGraph {
        let s = settings
        var g = graph
        // The preset picks H.264 + AAC; the container follows the output file's extension.
        g.output.container = nil
        g.output.video = OutputSettings.Video(codec: .h264, crf: s.crf, bitrate: nil, preset: s.encoderPreset,
                                              pixelFormat: "yuv420p", gopSize: graph.output.video.gopSize)
        g.output.audio = OutputSettings.Audio(codec: .aac, bitrate: s.audioBitrate, sampleRate: graph.output.audio.sampleRate,
                                              channels: graph.output.audio.channels)
        if let maxRate = s.maxFrameRate {
            let longest = MediaTime(maxRate.reciprocal)
            if g.videoComposition.frameDuration < longest { g.videoComposition.frameDuration = longest }
        }
        let size = graph.videoComposition.renderSize
        let height = s.height ?? size.height / s.divisor
        guard height != size.height else { return g }
        let width = 2 * Int((Double(size.width) * Double(height) / Double(size.height) / 2).rounded())
        return g.resized(to: PixelSize(width: width, height: 2 * ((height + 1) / 2)))
    }
}
