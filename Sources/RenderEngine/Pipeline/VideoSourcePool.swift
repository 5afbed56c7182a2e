import CompositionGraph
import MediaTime

/// The open video readers of a render: one per (track, file), opened at its first frame and
/// closed once the render has passed the last segment of that track showing that file, so
/// memory does not grow with the length of the timeline. With a shelf, readers left by the
/// previous generator of a preview are taken before new ones are opened.
final class VideoSourcePool {
    private struct Key: Hashable {
        var trackID: Int
        /// `MediaReference.sourceKey`.
        var path: String
    }

    private let open: (MediaReference) throws -> VideoFrameSource
    private let shelf: ReaderShelf?
    private var sources: [Key: (ref: MediaReference, source: VideoFrameSource)] = [:]
    /// The end of the last segment using each key.
    private let lastUse: [Key: MediaTime]

    /// `matteUses`: the mattes' readers (`VideoComposition.matteUses`), kept open like the tracks'.
    init(composition: Composition, matteUses: [VideoComposition.MatteUse] = [], shelf: ReaderShelf? = nil,
         open: @escaping (MediaReference) throws -> VideoFrameSource) {
        self.open = open
        self.shelf = shelf
        var lastUse: [Key: MediaTime] = [:]
        for track in composition.tracks where track.kind == .video {
            for segment in track.segments {
                let ref: MediaReference
                switch segment.content {
                case .media(let r, _)?, .still(let r)?: ref = r
                default: continue
                }
                let key = Key(trackID: track.id, path: ref.sourceKey)
                lastUse[key] = max(lastUse[key] ?? segment.target.end, segment.target.end)
            }
        }
        for use in matteUses {
            let key = Key(trackID: use.trackID, path: use.path)
            lastUse[key] = max(lastUse[key] ?? use.end, use.end)
        }
        self.lastUse = lastUse
    }

    func source(_ ref: MediaReference, trackID: Int) throws -> VideoFrameSource {
        let key = Key(trackID: trackID, path: ref.sourceKey)
        if let open = sources[key] { return open.source }
        let s = try shelf?.take(ref, trackID: trackID) ?? open(ref)
        sources[key] = (ref, s)
        return s
    }

    /// Hands the open readers to the shelf (for the next generator) and forgets them.
    func shelve() {
        guard let shelf else { return }
        var shelved: [ReaderShelf.Key: VideoFrameSource] = [:]
        for (key, open) in sources {
            shelved[ReaderShelf.Key(path: key.path, stamp: open.ref.facts.stamp, trackID: key.trackID)] = open.source
        }
        sources = [:]
        shelf.replace(with: shelved)
    }

    /// Closes the readers no frame at or after `t` needs.
    func release(before t: MediaTime) {
        guard !sources.isEmpty else { return }
        for key in sources.keys where lastUse[key].map({ $0 <= t }) ?? true { sources[key] = nil }
    }

    var openCount: Int { sources.count }
}
