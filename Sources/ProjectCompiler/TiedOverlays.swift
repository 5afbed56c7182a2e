import JSONSchema
import MediaTime
import ProjectFile

/// An overlay with its times on the timeline, worked out from its `OverlayTiming` once the
/// clips are placed.
struct TimedOverlay {
    var overlay: Overlay
    var start: MediaTime
    /// nil: to the timeline's end.
    var end: MediaTime?

    /// The range it is drawn over on a timeline that ends at `timelineEnd`; nil when it
    /// starts at or after its end.
    func range(timelineEnd: MediaTime) -> TimeRange? {
        let end = end ?? timelineEnd
        return end > start ? TimeRange(start: start, end: end) : nil
    }
}

/// Overlays that follow a clip: `at: { clip: intro, from: end, offset: -1s }`, `duration:
/// clip`, and a clip's own `overlays:`. They count from the clip's span as placement leaves it
/// (`PlacedClip.target`): from the start of the transition into the clip, where its picture
/// starts to show, to the end of the transition out of it, where it stops. Only overlays name
/// clips, and a clip's place never depends on an overlay, so no cycle can form.
extension CompileSession {
    /// Every overlay with its times, in drawing order (`Project.overlaysInDrawingOrder`).
    /// Reports ids given twice, ids no clip has, and times a clip's span makes impossible; an
    /// overlay that follows a clip that could not be placed (reported already) is left out.
    mutating func timedOverlays(video: [[PlacedClip<VideoClip>]], audio: [[PlacedClip<AudioClip>]]) -> [TimedOverlay] {
        let spans = clipSpans(video: video, audio: audio)
        var result: [TimedOverlay] = []
        for (overlay, holder) in project.overlaysInDrawingOrder {
            let span: ClipSpan?
            switch overlay.timing.base {
            case .timeline:
                span = nil
            case .ownClip:
                guard let holder, let placed = video[holder.track].first(where: { $0.index == holder.item }) else { continue }
                span = ClipSpan(range: placed.target, name: "its clip")
            case .clip(let id):
                guard let range = spans[id.name] else {
                    reportUnknown(id)
                    continue
                }
                guard let range else { continue }
                span = ClipSpan(range: range, name: "clip '\(id.name)'")
            }
            if let timed = timed(overlay, following: span) { result.append(timed) }
        }
        return result
    }

    /// The span of each clip with an id, by id (an inner nil: the clip could not be placed);
    /// an id given to a second clip is reported there.
    private mutating func clipSpans(video: [[PlacedClip<VideoClip>]], audio: [[PlacedClip<AudioClip>]]) -> [String: TimeRange?] {
        var spans: [String: TimeRange?] = [:]
        var firstPlace: [String: Origin] = [:]
        let ids = project.videoTracks.flatMap { $0.items.compactMap { if case .clip(let c) = $0 { c.id } else { nil } } }
            + project.audioTracks.flatMap { $0.items.compactMap { if case .clip(let c) = $0 { c.id } else { nil } } }
        for id in ids {
            if let first = firstPlace[id.name] {
                problems.report("the id '\(id.name)' is already the id of the clip at line \(first.location.line)", at: id.origin,
                                hint: "ids are unique in the project: give this clip another one")
            } else {
                firstPlace[id.name] = id.origin
                spans[id.name] = .some(nil)
            }
        }
        let placed = video.flatMap { $0.map { ($0.clip.id, $0.target) } } + audio.flatMap { $0.map { ($0.clip.id, $0.target) } }
        for case (let id?, let target) in placed where firstPlace[id.name]?.location == id.origin.location {
            spans[id.name] = target
        }
        return spans
    }

    private mutating func reportUnknown(_ id: ClipID) {
        let clips = project.videoTracks.flatMap { $0.items.compactMap { if case .clip(let c) = $0 { (c.id?.name, c.name) } else { nil } } }
            + project.audioTracks.flatMap { $0.items.compactMap { if case .clip(let c) = $0 { (c.id?.name, c.name) } else { nil } } }
        let ids = clips.compactMap(\.0)
        let hint: String
        if let near = Suggestion.didYouMean(id.name, among: ids) {
            hint = near
        } else if clips.contains(where: { $0.0 == nil && $0.1 == id.name }) {
            hint = "'\(id.name)' is the name of a clip, a label; give that clip id: \(id.name) to follow it"
        } else if ids.isEmpty {
            hint = "give the clip to follow an id (id: \(id.name))"
        } else {
            hint = "the clips' ids: \(ids.prefix(12).joined(separator: ", "))"
        }
        problems.report("no clip has the id '\(id.name)'", at: id.origin, hint: hint)
    }

    /// The overlay's times, counted from `span` (nil: on the timeline); nil after reporting
    /// why the clip's span leaves it no time.
    private mutating func timed(_ o: Overlay, following span: ClipSpan?) -> TimedOverlay? {
        let timing = o.timing
        guard let span else {
            guard case .time(let d)? = timing.length else { return TimedOverlay(overlay: o, start: timing.offset, end: nil) }
            return TimedOverlay(overlay: o, start: timing.offset, end: timing.offset + d)
        }
        let edge = timing.edge == .start ? span.range.start : span.range.end
        let start = edge + timing.offset
        let counted = counting(timing, from: span)
        if start.isNegative {
            problems.report("this overlay would start \(TimeNotation.seconds(-start)) before the timeline does: \(counted), which is at \(TimeNotation.clock(edge))",
                            at: timing.atOrigin ?? o.origin, hint: "make the offset at least \(TimeNotation.seconds(-edge))")
            return nil
        }
        switch timing.length {
        case nil:
            return TimedOverlay(overlay: o, start: start, end: nil)
        case .time(let d):
            return TimedOverlay(overlay: o, start: start, end: start + d)
        case .clip:
            guard span.range.end > start else {
                if let written = timing.lengthOrigin {
                    problems.report("duration: clip ends the overlay where \(span.name) ends, at \(TimeNotation.clock(span.range.end)), but the overlay starts only at \(TimeNotation.clock(start)) (\(counted))",
                                    at: written, hint: "start it before the clip ends, or give it a duration of its own (duration: 2s)")
                } else {
                    problems.report("this overlay starts at \(TimeNotation.clock(start)) (\(counted)), after \(span.name) has ended (at \(TimeNotation.clock(span.range.end))): an overlay in a clip lasts to the clip's end unless it says otherwise",
                                    at: timing.atOrigin ?? o.origin, hint: "start it within the clip, or give it a duration of its own (duration: 2s)")
                }
                return nil
            }
            return TimedOverlay(overlay: o, start: start, end: span.range.end)
        }
    }

    /// How the overlay's start is counted, for messages: `1s before the end of clip 'intro'`.
    private func counting(_ timing: OverlayTiming, from span: ClipSpan) -> String {
        let place = "the \(timing.edge.rawValue) of \(span.name)"
        if timing.offset.isZero { return "at \(place)" }
        return "\(TimeNotation.seconds(timing.offset.isNegative ? -timing.offset : timing.offset)) \(timing.offset.isNegative ? "before" : "after") \(place)"
    }
}

/// Where a clip shows, and how messages name it (`clip 'intro'`, `its clip`).
private struct ClipSpan {
    var range: TimeRange
    var name: String
}
