import CompositionGraph
import Foundation
import MediaFormat
import MediaIO
import MediaTime
import RenderEngine

/// One good state of the project, everything the page shows of it made from one graph: the
/// exact stills, the playback pieces (the project's segment plan rendered at the preview's
/// size by an `ExportSession` whose parts and pieces live in the segment cache), and the
/// timeline. A new state replaces it whole; its renders in flight are then cancelled.
final class PreviewGeneration: Sendable {
    let number: Int
    let graph: CompositionGraph
    let stills: StillFrames
    let playback: ExportSession

    /// How playback pieces are encoded: H.264 ultrafast (x264 keeps up on 2 cores), at most
    /// 30 frames a second, and FLAC, which has no encoder delay, so each piece's audio starts
    /// and ends exactly with its video.
    static func playbackSettings(shortSide: Int) -> ExportPreset.Settings {
        ExportPreset.Settings(shortSide: shortSide, maxFrameRate: Rational(30), crf: 23, encoderPreset: "ultrafast",
                              audioCodec: .flac, audioBitrate: nil)
    }

    /// Pieces are shorter than the render's segments: the first one renders before playback
    /// starts, so its length sets the wait on a cold cache.
    static let pieceLength = MediaTime(seconds: 2)

    /// Throws `RenderError` when the graph cannot be rendered (media that changed, a size the
    /// encoder refuses).
    init(number: Int, graph: CompositionGraph, stillSize: StillSize, cacheFolder: String, readers: ReaderShelf) throws {
        self.number = number
        self.graph = graph
        let size = stillSize.fitting(graph.videoComposition.renderSize)
        stills = try StillFrames(graph: graph, size: size, readers: readers)
        // Pieces are MP4 with a picture, even of an audio-only output (its background shows).
        var playable = graph
        playable.output.container = .mp4
        if playable.output.video == nil {
            playable.output.video = OutputSettings.Video(codec: .h264, crf: nil, bitrate: nil, preset: nil, pixelFormat: "yuv420p")
        }
        var small = Self.playbackSettings(shortSide: min(size.width, size.height)).apply(to: playable)
        small.output.segmentLength = Self.pieceLength
        playback = try ExportSession(graph: small, options: ExportOptions(
            outputPath: URL(fileURLWithPath: cacheFolder).appendingPathComponent("preview.mp4").path,
            jobs: 1, partsFolder: cacheFolder))
    }

    var segments: [SegmentPlan.Segment] { playback.plan.segments }

    /// Once its decoders, frame pools and overlay sprites are freed (right after this body:
    /// stored properties go after `deinit`), their pages go back to the kernel (`HeapPolicy`).
    deinit {
        Self.trimming.async { HeapPolicy.trim() }
    }

    private static let trimming = DispatchQueue(label: "reel.preview.trim", qos: .utility)
}
