import CompositionGraph
import MediaTime

/// A clip with its place on the timeline and the transitions at its edges.
struct PlacedClip<Clip: Sendable> {
    var clip: Clip
    var index: Int
    /// Timeline range.
    var target: TimeRange
    /// Source range for file media; nil for colour clips and stills.
    var source: TimeRange?
    /// Transition with the previous clip (overlapping the start of `target`).
    var transitionIn: PlacedTransition?
    var transitionOut: PlacedTransition?
    /// Which of the track's alternating A/B composition tracks it goes on.
    var lane: Int
}

struct PlacedTransition {
    var transition: Transition
    var range: TimeRange
}

/// What placement needs to know about one clip, whichever kind it is.
struct ClipFacts {
    var timing: ClipTiming
    var origin: Origin
    /// The media's duration, when the clip plays a file with a duration.
    var mediaDuration: MediaTime?
    /// True for files with time (video, audio); false for colours and stills.
    var hasSourceTime: Bool
    var mediaName: String?
    /// For looping clips: the timeline time to fill by repeating the source range.
    var loopLength: MediaTime?
    /// True for sound (an audio clip): asked to read past its media's end, it ends where the
    /// media ends, with a warning, as music shorter than the video does in every editor.
    var endsWithMedia = false
}

/// Lays a track's items out on the timeline: clips follow one another unless `at` places
/// them, a gap moves the cursor, a transition overlaps its two neighbours. Reports
/// overlaps, transitions at a track's edge or longer than a neighbour, empty clips and
/// source ranges past the media's end.
struct Placement {
    /// `facts[i]` describes `track.items[i]` when it is a clip (nil when the clip is unusable).
    static func place<Clip>(_ track: Track<Clip>, facts: [ClipFacts?], problems: inout Problems) -> [PlacedClip<Clip>] {
        var placed: [PlacedClip<Clip>] = []
        var cursor = MediaTime.zero
        var pending: Transition?
        var lastWasClip = false
        // A clip already reported unusable (unknown media, say): what the transition after it
        // makes of that clip (its length, its overlap) is not checked; where it sits is.
        var lastWasUnusableClip = false
        var pendingFollowsUnusable = false
        for (position, item) in track.items.enumerated() {
            switch item {
            case .gap(let d, let origin):
                if let t = pending {
                    problems.report("a transition must sit between two clips, not before a gap", at: t.origin)
                    pending = nil
                }
                _ = origin
                cursor += d
                lastWasClip = false
                lastWasUnusableClip = false
            case .transition(let t):
                if lastWasUnusableClip {
                    pending = t
                    pendingFollowsUnusable = true
                } else if !lastWasClip {
                    let edge = position == 0 ? "at the start of the track" : "after a gap or another transition"
                    problems.report("the \(t.kind.rawValue) transition is \(edge); a transition must sit between two clips", at: t.origin,
                                    hint: "move it between two clips or remove it")
                } else {
                    pending = t
                    pendingFollowsUnusable = false
                }
                lastWasClip = false
                lastWasUnusableClip = false
            case .clip(let clip):
                guard let f = facts[position], let (source, length) = sourceAndLength(f, problems: &problems) else {
                    lastWasClip = false
                    lastWasUnusableClip = true
                    pending = nil
                    continue
                }
                lastWasUnusableClip = false
                var start = f.timing.at ?? cursor
                var transitionIn: PlacedTransition?
                if let t = pending, !pendingFollowsUnusable, var previous = placed.last {
                    if f.timing.at != nil {
                        problems.report("a clip after a transition cannot have 'at': the transition places it", at: f.origin)
                    }
                    var t = t
                    let shortest = min(previous.target.duration, length)
                    if t.duration > shortest {
                        problems.report("the \(t.kind.rawValue) transition lasts \(t.duration)s but a neighbouring clip lasts only \(shortest)s",
                                        at: t.origin, hint: "make the transition at most \(shortest)s")
                        t.duration = shortest
                    } else if let before = previous.transitionIn, t.duration > previous.target.end - before.range.end {
                        // The clip between two transitions must hold both: its neighbours share a lane.
                        let room = previous.target.end - before.range.end
                        problems.report("the \(t.kind.rawValue) transition (\(TimeNotation.seconds(t.duration))) overlaps the \(before.transition.kind.rawValue) transition before it: the clip between them (\(TimeNotation.seconds(previous.target.duration))) leaves it only \(TimeNotation.seconds(room))",
                                        at: t.origin, hint: "together, the transitions into and out of a clip may last at most the clip's length")
                    }
                    if let before = previous.transitionIn { t.duration = min(t.duration, previous.target.end - before.range.end) }
                    start = previous.target.end - t.duration
                    let p = PlacedTransition(transition: t, range: TimeRange(start: start, duration: t.duration))
                    previous.transitionOut = p
                    placed[placed.count - 1] = previous
                    transitionIn = p
                } else if let previous = placed.last, start < previous.target.end {
                    problems.report("this clip starts at \(TimeNotation.clock(start)), before the previous clip ends at \(TimeNotation.clock(previous.target.end))",
                                    at: f.origin, hint: "clips on one track must not overlap: put it on another track or use a transition")
                }
                if start.isNegative {
                    problems.report("this clip would start before 0", at: f.origin)
                }
                let lane = transitionIn == nil ? (placed.last?.lane ?? 0) : 1 - (placed.last?.lane ?? 0)
                placed.append(PlacedClip(clip: clip, index: position, target: TimeRange(start: start, duration: length),
                                         source: source, transitionIn: transitionIn, transitionOut: nil, lane: lane))
                cursor = start + length
                pending = nil
                lastWasClip = true
            }
        }
        if let t = pending {
            problems.report("the \(t.kind.rawValue) transition is at the end of the track; a transition must sit between two clips", at: t.origin)
        }
        return placed
    }

    /// The source range (nil without source time) and the timeline length of a clip.
    private static func sourceAndLength(_ f: ClipFacts, problems: inout Problems) -> (TimeRange?, MediaTime)? {
        let t = f.timing
        if t.durationIsInvalid { return nil }
        guard f.hasSourceTime else {
            if let key = t.effects.keyNeedingSourceTime {
                problems.report("'\(key)' plays a video's time, but this clip shows a colour or a still image", at: f.origin,
                                hint: "remove '\(key)', or use video media")
                return nil
            }
            guard let d = t.duration else {
                if t.toMediaEnd {
                    problems.report("'duration: media' plays a clip to its media's end, but a colour, GLSL or still-image clip has no end of its own",
                                    at: f.origin, hint: "give it a length, e.g. duration: 3s")
                    return nil
                }
                problems.report("a colour, GLSL or still-image clip needs a duration", at: f.origin, hint: "add e.g. duration: 3s", missing: ["duration"])
                return nil
            }
            return (nil, d / t.speed)
        }
        if let freeze = t.effects.freeze { return frozen(freeze, f, problems: &problems) }
        let from = t.from ?? .zero
        var end: MediaTime
        if let to = t.to {
            end = to
        } else if let d = t.duration {
            end = from + d
        } else if let mediaEnd = f.mediaDuration {
            end = mediaEnd
        } else {
            problems.report("the length of this clip is unknown: give 'to' or 'duration'", at: f.origin)
            return nil
        }
        guard end > from else {
            problems.report("this clip is empty: it ends (\(TimeNotation.seconds(end))) at or before it starts (\(TimeNotation.seconds(from)))", at: f.origin,
                            hint: "'to' must be after 'from'")
            return nil
        }
        if let mediaEnd = f.mediaDuration, end > mediaEnd, f.endsWithMedia, from < mediaEnd {
            problems.warn("the clip asks for \(f.mediaName.map { "'\($0)'" } ?? "its media") up to \(TimeNotation.clock(end)) but it ends at \(TimeNotation.clock(mediaEnd)): the clip ends there, \(TimeNotation.seconds(end - mediaEnd)) early",
                          at: f.origin, hint: "write loop: true to repeat it, or a shorter \(t.to != nil ? "'to'" : "'duration'")")
            end = mediaEnd
        } else if let mediaEnd = f.mediaDuration, end > mediaEnd {
            // The bound on what the clip says: its `to`, else its `duration` after `from`.
            let hint = from >= mediaEnd ? "'from' is past the media's end: start before \(TimeNotation.seconds(mediaEnd))"
                : t.to != nil ? "shorten the clip ('to' ≤ \(TimeNotation.seconds(mediaEnd))) or pick another range"
                : "shorten the clip ('duration' ≤ \(TimeNotation.seconds(mediaEnd - from)) from \(TimeNotation.seconds(from))) or pick another range"
            problems.report("the clip reads \(f.mediaName.map { "'\($0)'" } ?? "its media") up to \(TimeNotation.clock(end)) but the media ends at \(TimeNotation.clock(mediaEnd))",
                            at: f.origin, hint: hint)
        }
        let source = TimeRange(start: from, end: end)
        if let ramp = t.effects.ramp {
            guard let length = ramp.timelineLength(forSource: source.duration) else {
                problems.report("the speed ramp reads \(TimeNotation.seconds(ramp.sourceReadByEnd)) of source by its last keyframe (at \(TimeNotation.seconds(ramp.end))), but the clip's source range lasts only \(TimeNotation.seconds(source.duration))",
                                at: ramp.points[ramp.points.count - 1].origin,
                                hint: "lengthen the range (to ≥ \(TimeNotation.seconds(from + ramp.sourceReadByEnd))) or end the ramp earlier")
                return nil
            }
            return (source, length)
        }
        return (source, f.loopLength ?? source.duration / t.speed)
    }

    /// A held frame: an empty source range at the frame's time, played for the clip's duration.
    private static func frozen(_ freeze: FreezePoint, _ f: ClipFacts, problems: inout Problems) -> (TimeRange?, MediaTime)? {
        guard let d = f.timing.duration else {
            problems.report("a freeze frame needs a duration: how long the frame is held", at: f.origin, hint: "add e.g. duration: 2s", missing: ["duration"])
            return nil
        }
        let at: MediaTime
        switch freeze {
        case .at(let t): at = t
        case .end:
            guard let mediaEnd = f.mediaDuration else { return nil }
            at = mediaEnd
        }
        if let mediaEnd = f.mediaDuration, at > mediaEnd {
            problems.report("the clip freezes \(f.mediaName.map { "'\($0)'" } ?? "its media") at \(TimeNotation.clock(at)) but the media ends at \(TimeNotation.clock(mediaEnd))",
                            at: f.origin, hint: "freeze at most at \(TimeNotation.seconds(mediaEnd)), or write freeze: end for the last frame")
        }
        return (TimeRange(start: at, duration: .zero), d)
    }
}
