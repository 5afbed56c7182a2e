import JSONSchema
import MediaTime
import ProjectCompiler

/// Where on one side's timeline the element a cause's path names sits: an overlay over its
/// time, a clip over its place (and, when its timing changes, everything after it, which
/// moves), a media file wherever it is used, the file's own settings (metadata, faststart)
/// nowhere on it; nil: the whole timeline (the output settings, captions, fonts).
struct CausePlacement {
    let project: Project
    let layout: TimelineLayout
    let duration: MediaTime

    /// Clip keys whose change moves every later clip.
    static let timingKeys: Set<String> = ["from", "to", "duration", "at", "speed", "speed_ramp", "reverse", "freeze", "loop"]

    /// Output settings that change the file but no frame and no sound.
    static let fileSettings: Set<String> = ["metadata", "faststart", "container"]

    func ranges(of cause: Cause) -> [TimeRange]? {
        let steps = PathSteps.parse(cause.path)
        let whole = TimeRange(start: .zero, end: duration)
        guard case .key(let first)? = steps.first else { return nil }
        // An overlay, in `overlays:` or in a clip's own: over its time (tied to a clip, as its clip places it).
        if let overlay = layout.overlays.first(where: { DocumentPath.isWithin(cause.path, $0.path) }) { return [clamped(overlay.range)] }
        switch first {
        case "overlays":
            return [whole]
        case "video", "audio":
            guard steps.count > 1, case .index(let t) = steps[1] else { return [whole] }
            let placed = first == "video" ? layout.video : layout.audio
            guard placed.indices.contains(t) else { return [whole] }
            guard steps.count > 3, case .index(let item) = steps[3] else { return placed[t].map(\.target) }
            // A clip, or the transition into the clip after it.
            guard let clip = placed[t].first(where: { $0.item >= item }) else { return [whole] }
            let range = clip.item == item ? clip.target : (clip.transitionIn?.range ?? clip.target)
            let key: String? = steps.count > 4 ? { if case .key(let k) = steps[4] { return k } else { return nil } }() : nil
            // A new or removed item, a new trim or a transition's length moves what follows.
            if cause.note == "added" || cause.note == "removed" || key.map(Self.timingKeys.contains) == true || clip.item != item {
                return [TimeRange(start: range.start, end: max(range.end, duration))]
            }
            return [range]
        case "output":
            guard steps.count > 1, case .key(let key) = steps[1] else { return nil }
            return Self.fileSettings.contains(key) ? [] : nil
        case "media":
            guard steps.count > 1, case .key(let name) = steps[1] else { return nil }
            let uses = uses(of: name)
            return uses.isEmpty ? nil : uses
        default:
            return nil
        }
    }

    /// `range` within the timeline.
    private func clamped(_ range: TimeRange) -> TimeRange {
        let start = min(range.start, duration)
        return TimeRange(start: start, end: max(min(range.end, duration), start))
    }

    /// Where the media called `name` is seen or heard.
    private func uses(of name: String) -> [TimeRange] {
        var found: [TimeRange] = []
        for (t, track) in project.videoTracks.enumerated() where layout.video.indices.contains(t) {
            for placed in layout.video[t] {
                guard track.items.indices.contains(placed.item), case .clip(let clip) = track.items[placed.item] else { continue }
                if case .media(let m) = clip.source, m == name { found.append(placed.target) }
            }
        }
        for (t, track) in project.audioTracks.enumerated() where layout.audio.indices.contains(t) {
            for placed in layout.audio[t] {
                guard track.items.indices.contains(placed.item), case .clip(let clip) = track.items[placed.item], clip.media == name else { continue }
                found.append(placed.target)
            }
        }
        for placed in layout.overlays {
            switch placed.overlay.content {
            case .image(let m) where m == name, .svg(let m) where m == name: found.append(clamped(placed.range))
            default: break
            }
        }
        return found
    }
}
