import CompositionGraph
import Dispatch
import MediaIO
import RenderEngine

/// The exact still frames of one state of the project: `reel frame`'s own code path
/// (`FrameGenerator` at the render size, scaled to the still size in the RGB conversion,
/// bit-exact PNG), so a paused picture has the same pixels as `reel frame --at T --size W`.
/// Frames are made one at a time on a queue of their own (the generator keeps its decoders
/// open, so nearby frames decode forward); the last few PNGs are kept. When a new state
/// replaces this one, its readers go to the next one (`handOverReaders`): after an edit
/// that leaves the media alone, the frame at the playhead needs no decoding.
final class StillFrames: @unchecked Sendable {
    let size: PixelSize
    private let generator: FrameGenerator
    private let queue = DispatchQueue(label: "reel.preview.stills")
    private var recent: [(frame: Int64, png: [UInt8])] = []
    private static let kept = 12

    init(graph: CompositionGraph, size: PixelSize, readers: ReaderShelf) throws {
        generator = try FrameGenerator(graph: graph, shelf: readers)
        self.size = size
    }

    var frameCount: Int64 { generator.frameCount }

    /// The PNG of frame `n` (0 ≤ n < frameCount). Throws `RenderError`.
    func png(_ n: Int64) async throws -> [UInt8] {
        try await withCheckedThrowingContinuation { continuation in
            queue.async { [self] in
                continuation.resume(with: Result { try make(n) })
            }
        }
    }

    /// Puts this state's open readers on the shelf it was made with, once the frame being
    /// made (if any) is done.
    func handOverReaders() {
        queue.sync { generator.shelveReaders() }
    }

    private func make(_ n: Int64) throws -> [UInt8] {
        if let hit = recent.first(where: { $0.frame == n }) { return hit.png }
        let png = try PNGEncoder.encode(try generator.image(n, size: size))
        recent.append((n, png))
        if recent.count > Self.kept { recent.removeFirst() }
        return png
    }
}
