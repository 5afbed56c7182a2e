import CompositionGraph
import Foundation
import MediaIO
import ReelApplication

/// One good state of the project, everything the page shows of it made from one graph: the
/// exact stills, the playback pieces (ReelApplication's `PlaybackRender` of the graph at the
/// stills' size, its parts and pieces in the segment cache), and the timeline. A new state
/// replaces it whole; its renders in flight are then cancelled.
final class PreviewGeneration: Sendable {
    let number: Int
    let graph: CompositionGraph
    let stills: StillFrames
    let playback: PlaybackRender

    /// Throws `RenderError` when the graph cannot be rendered (media that changed, a size the
    /// encoder refuses).
    init(number: Int, graph: CompositionGraph, stills: StillFrames, cacheFolder: String) throws {
        self.number = number
        self.graph = graph
        self.stills = stills
        playback = try PlaybackRender(graph: graph, size: stills.size, cacheFolder: cacheFolder)
    }

    var segments: [PlaybackRender.Piece] { playback.pieces }

    /// Once its decoders, frame pools and overlay sprites are freed (right after this body:
    /// stored properties go after `deinit`), their pages go back to the kernel (`HeapPolicy`).
    deinit {
        Self.trimming.async { HeapPolicy.trim() }
    }

    private static let trimming = DispatchQueue(label: "reel.preview.trim", qos: .utility)
}
