import CompositionGraph
import MediaTime

/// The open video readers of a render: one per (track, file), opened at its first frame and
/// closed once the render has passed the last segment of that track showing that file, so
/// memory does not grow with the length of the timeline.
final class VideoSourcePool {
    private struct Key: Hashable {
        var trackID: Int
        var path: String
    }

    private let open: (MediaReference) throws -> VideoFrameSource
    private var sources: [Key: VideoFrameSource] = [:]
    /// The end of the last segment using each key.
    private let lastUse: [Key: MediaTime]

    init(composition: Composition, open: @escaping (MediaReference) throws -> VideoFrameSource) {
        self.open = open
        var lastUse: [Key: MediaTime] = [:]
        for track in composition.tracks where track.kind == .video {
            for segment in track.segments {
                let ref: MediaReference
                switch segment.content {
                case .media(let r, _)?, .still(let r)?: ref = r
                default: continue
                }
                let key = Key(trackID: track.id, path: ref.path)
                lastUse[key] = max(lastUse[key] ?? segment.target.end, segment.target.end)
            }
        }
        self.lastUse = lastUse
    }

    func source(_ ref: MediaReference, trackID: Int) throws -> VideoFrameSource {
        let key = Key(trackID: trackID, path: ref.path)
        if let s = sources[key] { return s }
        let s = try open(ref)
        sources[key] = s
        return s
    }

    /// Closes the readers no frame at or after `t` needs.
    func release(before t: MediaTime) {
        guard !sources.isEmpty else { return }
        for key in sources.keys where lastUse[key].map({ $0 <= t }) ?? true { sources[key] = nil }
    }

    var openCount: Int { sources.count }
}
