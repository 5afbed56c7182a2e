import CompositionGraph
import Synchronization

/// Open video readers handed from one `FrameGenerator` to the next (the preview makes a new
/// generator for every edit). A reader keeps the frame it decoded last, so the next
/// generator asking for the same source frame of an unchanged file gets it without
/// opening, seeking or decoding anything. Only readers of the same file in the same state
/// (path and `FileStamp`) are handed on; the shelf holds one generator's readers at a time.
public final class ReaderShelf: Sendable {
    struct Key: Hashable {
        var path: String
        var stamp: FileStamp
        var trackID: Int
    }

    /// The shelved readers.
    /// @unchecked: a reader on the shelf is the shelf's alone, and once taken off the taker's alone.
    private struct Shelved: @unchecked Sendable { var readers: [Key: VideoFrameSource] = [:] }

    private let shelved = Mutex(Shelved())

    public init() {}

    /// The shelved reader of `ref` for track `trackID`, taken off the shelf, if there is one.
    func take(_ ref: MediaReference, trackID: Int) -> VideoFrameSource? {
        shelved.withLock { $0.readers.removeValue(forKey: Key(path: ref.sourceKey, stamp: ref.facts.stamp, trackID: trackID)) }
    }

    /// Puts these readers on the shelf instead of whatever it held (those are closed).
    func replace(with readers: [Key: VideoFrameSource]) {
        shelved.withLock { $0 = Shelved(readers: readers) }
    }
}
