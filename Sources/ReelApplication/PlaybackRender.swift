import CompositionGraph
import Foundation
import MediaTime
import RenderEngine

/// What a preview plays of a project: its segment plan rendered small, one piece (fragmented
/// MP4, what a Media Source Extensions player appends) per segment, made when asked for and
/// kept in the segment cache under the segment's content keys, so an edit that leaves a
/// segment alone reuses its piece. Pieces are MP4 with a picture, even of an audio-only output
/// (its background shows). Safe from any thread.
public final class PlaybackRender: Sendable {
    /// One piece: its segment's place on the timeline, and the key naming its content.
    public struct Piece: Equatable, Sendable {
        public let index: Int
        public let timeRange: TimeRange
        /// A new key after an edit means new pictures or sound.
        public let key: String
    }

    /// In timeline order, covering the whole project.
    public let pieces: [Piece]
    private let session: ExportSession

    /// How pieces are encoded: H.264 ultrafast (x264 keeps up on 2 cores), at most 30 frames
    /// a second, and FLAC, which has no encoder delay, so each piece's audio starts and ends
    /// exactly with its video.
    static func settings(shortSide: Int) -> ExportPreset.Settings {
        ExportPreset.Settings(shortSide: shortSide, maxFrameRate: Rational(30), crf: 23, encoderPreset: "ultrafast",
                              audioCodec: .flac, audioBitrate: nil)
    }

    /// Pieces are shorter than a render's segments: the first one renders before playback
    /// starts, so its length sets the wait on a cold cache.
    static let pieceLength = MediaTime(seconds: 2)

    /// The playback of `graph` at `size` (the preview's stills' size), its parts and pieces in
    /// `cacheFolder`. Throws `RenderError` when the graph cannot be rendered (media that
    /// changed, a size the encoder refuses).
    public init(graph: CompositionGraph, size: PixelSize, cacheFolder: String) throws {
        var playable = graph
        playable.output.container = .mp4
        if playable.output.video == nil {
            playable.output.video = OutputSettings.Video(codec: .h264, crf: nil, bitrate: nil, preset: nil, pixelFormat: "yuv420p")
        }
        var small = Self.settings(shortSide: min(size.width, size.height)).apply(to: playable)
        small.output.segmentLength = Self.pieceLength
        session = try ExportSession(graph: small, options: ExportOptions(
            outputPath: URL(fileURLWithPath: cacheFolder).appendingPathComponent("preview.mp4").path,
            jobs: 1, partsFolder: cacheFolder))
        pieces = session.plan.segments.map { Piece(index: $0.index, timeRange: $0.timeRange, key: $0.pieceKey) }
    }

    /// The path of piece `index`, made now (on the calling thread) unless it is made already.
    /// Throws `RenderError`, or a cancellation once `cancel()` was called.
    public func piece(_ index: Int) throws -> String { try session.piece(index) }

    /// The path of piece `index` when it is made already (marked as just used).
    public func existingPiece(_ index: Int) -> String? { session.existingPiece(index) }

    /// Stops the piece being made within a frame or two; none is made after.
    public func cancel() { session.cancel() }

    public var isCancelled: Bool { session.isCancelled }
}
