import CompositionGraph
import Dispatch
import Foundation
import MediaIO
import RenderEngine
import Synchronization

/// The exact still frames of one state of the project: `reel frame`'s own code path
/// (`FrameGenerator` at the render size, scaled to the still size in the RGB conversion,
/// bit-exact PNG), so a paused picture has the same pixels as `reel frame --at T --size W`.
/// Frames are made one at a time on a queue of their own (the generator keeps its decoders
/// open, so nearby frames decode forward); the last few PNGs are kept. When a new state
/// replaces this one, its readers go to the next one (`handOverReaders`): after an edit
/// that leaves the media alone, the frame at the playhead needs no decoding.
///
/// A still nobody waits for is not made: an ask whose client has left is dropped when a new
/// ask comes and at its turn, and of the asks not begun only the newest `waitingAtMost` wait
/// (a page asks for one still at a time; more come from pages that moved on or from a client
/// flooding the server).
///
/// @unchecked: `generator` and `recent` are used only on `queue`; the asks are in a `Mutex`.
final class StillFrames: @unchecked Sendable {
    /// A still that was not made because nobody waits for it any more.
    struct Dropped: Error {}

    private final class Ask: Sendable {
        let isWanted: @Sendable () -> Bool
        let continuation: CheckedContinuation<[UInt8], any Error>

        init(isWanted: @escaping @Sendable () -> Bool, continuation: CheckedContinuation<[UInt8], any Error>) {
            self.isWanted = isWanted
            self.continuation = continuation
        }
    }

    let size: PixelSize
    private let generator: FrameGenerator
    private let queue = DispatchQueue(label: "reel.preview.stills")
    private var recent: [(frame: Int64, png: [UInt8])] = []
    private static let kept = 12
    /// Asks not begun, oldest first.
    private let waiting = Mutex<[Ask]>([])
    private static let waitingAtMost = 4

    /// The stills of `graph` at `stillSize` (fitted to its render size, as `reel frame --size`),
    /// read with `readers`.
    init(graph: CompositionGraph, fitting stillSize: StillSize, readers: ReaderShelf) throws {
        generator = try FrameGenerator(graph: graph, shelf: readers)
        size = stillSize.fitting(graph.videoComposition.renderSize)
    }

    var frameCount: Int64 { generator.frameCount }

    /// The PNG of frame `n` (0 ≤ n < frameCount). Throws `RenderError`, or `Dropped` when
    /// `isWanted` says no at its turn or newer asks superseded it.
    func png(_ n: Int64, isWanted: @escaping @Sendable () -> Bool) async throws -> [UInt8] {
        try await withCheckedThrowingContinuation { continuation in
            let ask = Ask(isWanted: isWanted, continuation: continuation)
            for dropped in wait(ask) { dropped.continuation.resume(throwing: Dropped()) }
            queue.async { [self] in
                let begun = waiting.withLock { waiting in waiting.firstIndex { $0 === ask }.map { waiting.remove(at: $0) } }
                guard begun != nil else { return } // dropped: answered already
                guard ask.isWanted() else { return ask.continuation.resume(throwing: Dropped()) }
                ask.continuation.resume(with: Result { try make(n) })
            }
        }
    }

    /// Lists `ask` with those not begun; returns the ones to drop: those nobody waits for any
    /// more, then the oldest beyond `waitingAtMost`.
    private func wait(_ ask: Ask) -> [Ask] {
        waiting.withLock { waiting in
            var kept: [Ask] = [], dropped: [Ask] = []
            for waiter in waiting + [ask] {
                if waiter.isWanted() { kept.append(waiter) } else { dropped.append(waiter) }
            }
            if kept.count > Self.waitingAtMost { dropped.append(kept.removeFirst()) }
            waiting = kept
            return dropped
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
