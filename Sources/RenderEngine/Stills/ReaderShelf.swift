import CompositionGraph
import Foundation

/// Open video readers handed from one `FrameGenerator` to the next (the preview makes a new
/// generator for every edit). A reader keeps the frame it decoded last, so the next
/// generator asking for the same source frame of an unchanged file gets it without
/// opening, seeking or decoding anything. Only readers of the same file in the same state
/// (path and `FileStamp`) are handed on; the shelf holds one generator's readers at a time.
public final class ReaderShelf: @unchecked Sendable {
    struct Key: Hashable {
        var path: String
        var stamp: FileStamp
        var trackID: Int
    }

    private let lock = NSLock()
    private var readers: [Key: VideoFrameSource] = [:]

    public init() {}

    /// The shelved reader of `ref` for track `trackID`, taken off the shelf, if there is one.
    func take(_ ref: MediaReference, trackID: Int) -> VideoFrameSource? {
        lock.withLock { readers.removeValue(forKey: Key(path: ref.sourceKey, stamp: ref.facts.stamp, trackID: trackID)) }
    }

    /// Puts these readers on the shelf instead of whatever it held (those are closed).
    func replace(with shelved: [Key: VideoFrameSource]) {
        lock.withLock { readers = shelved }
    }
}
