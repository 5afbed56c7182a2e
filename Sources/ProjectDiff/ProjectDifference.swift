import CompositionGraph
import MediaTime
import ProjectCompiler

/// One side of a diff as the segment cache sees it, and as its project says it.
public struct DiffSide: Sendable {
    /// One segment of the render: its frames' time range and its content keys
    /// (`SegmentPlan.Segment.key`, `.audioKey`).
    public struct Segment: Sendable, Equatable {
        public var timeRange: TimeRange
        public var key: String
        public var audioKey: String

        public init(timeRange: TimeRange, key: String, audioKey: String) {
            self.timeRange = timeRange
            self.key = key
            self.audioKey = audioKey
        }
    }

    public var facts: DocumentFacts
    public var project: Project
    public var layout: TimelineLayout
    public var graph: CompositionGraph
    public var segments: [Segment]
    /// The key the join keeps its mixed audio under (nil: the output has no audio).
    public var audioKey: String?

    public init(facts: DocumentFacts, project: Project, layout: TimelineLayout, graph: CompositionGraph, segments: [Segment], audioKey: String?) {
        self.facts = facts
        self.project = project
        self.layout = layout
        self.graph = graph
        self.segments = segments
        self.audioKey = audioKey
    }

    var duration: MediaTime { graph.duration }
}

/// What a change does to the output, decided from content keys without rendering: the time
/// ranges whose video or audio changes (the segments a cached render would render again),
/// each with its causes, and whether the join's audio would be mixed again.
public struct ProjectDifference: Sendable {
    public struct ChangedRange: Sendable, Equatable {
        /// On the new side's timeline.
        public var range: TimeRange
        public var video: Bool
        public var audio: Bool
        /// The segments of the range, by index.
        public var segments: [Int]
        public var causes: [Cause]
    }

    public var changed: [ChangedRange]
    /// What the old side had after the new side's end (nil: the new side is as long or longer).
    public var removed: TimeRange?
    public var oldDuration: MediaTime
    public var duration: MediaTime
    /// The join's audio is mixed again (its kept audio cannot be reused).
    public var audioChanged: Bool
    /// Every segment changes, for these causes (output size, fps, codec…); empty otherwise.
    public var everything: [Cause]
    /// The file's bytes change with no frame or sound changing (metadata, faststart…).
    public var fileOnly: [Cause]
    /// Every cause found, in document order.
    public var causes: [Cause]

    /// The outputs would be byte-identical.
    public var isIdentical: Bool { changed.isEmpty && !audioChanged && fileOnly.isEmpty && oldDuration == duration }

    /// The length of the changed video.
    public var videoChanged: MediaTime {
        changed.filter(\.video).reduce(.zero) { $0 + $1.range.duration }
    }

    public init(old: DiffSide, new: DiffSide) {
        oldDuration = old.duration
        duration = new.duration
        causes = CauseFinder.causes(old: old.facts, new: new.facts)
        let oldPlaces = CausePlacement(project: old.project, layout: old.layout, duration: old.duration)
        let newPlaces = CausePlacement(project: new.project, layout: new.layout, duration: new.duration)
        let placed = causes.map { cause -> (Cause, [TimeRange]?) in
            let a = oldPlaces.ranges(of: cause), b = newPlaces.ranges(of: cause)
            return (cause, a == nil && b == nil ? nil : (a ?? []) + (b ?? []))
        }
        let flags = Self.changedSegments(old: old, new: new)
        var ranges: [ChangedRange] = []
        for flag in flags {
            let (index, segment, video, audio) = (flag.index, flag.range, flag.video, flag.audio)
            let touching = placed.filter { $0.1.map { $0.contains { $0.intersection(segment) != nil } } ?? true }.map(\.0)
            // Nothing placed here: what starts earlier moved it.
            let earlier = placed.filter { $0.1.map { $0.contains { $0.start < segment.end } } ?? true }.map(\.0)
            let found = touching.isEmpty ? (earlier.isEmpty ? causes : earlier) : touching
            if var last = ranges.last, last.range.end == segment.start, last.video == video, last.audio == audio, last.causes == found {
                last.range = TimeRange(start: last.range.start, end: segment.end)
                last.segments.append(index)
                ranges[ranges.count - 1] = last
            } else {
                ranges.append(ChangedRange(range: segment, video: video, audio: audio, segments: [index], causes: found))
            }
        }
        changed = ranges
        removed = old.duration > new.duration ? TimeRange(start: new.duration, end: old.duration) : nil
        audioChanged = old.audioKey != new.audioKey
        let globals = placed.filter { $0.1 == nil }.map(\.0)
        let allVideo = !new.segments.isEmpty && flags.filter(\.video).count == new.segments.count
        everything = allVideo && new.segments.count > 1 ? globals : []
        var oldOutput = old.graph.output, newOutput = new.graph.output
        oldOutput.path = nil
        newOutput.path = nil
        let fileSettings = placed.filter { $0.1?.isEmpty == true }.map(\.0)
        // Settings of the file alone (metadata, faststart) are told whatever else changes.
        fileOnly = oldOutput == newOutput ? [] : !fileSettings.isEmpty ? fileSettings : ranges.isEmpty && !audioChanged ? globals : []
    }

    private struct SegmentChange {
        var index: Int
        var range: TimeRange
        var video: Bool
        var audio: Bool
    }

    /// Each segment whose video or audio key differs, with which: segment by segment where
    /// both sides cut the timeline at the same frames, every one where they do not.
    private static func changedSegments(old: DiffSide, new: DiffSide) -> [SegmentChange] {
        let hasAudio = old.audioKey != nil || new.audioKey != nil
        if old.segments.isEmpty && new.segments.isEmpty {
            // Audio alone: no segments, one mix.
            let whole = TimeRange(start: .zero, end: new.duration)
            return old.audioKey == new.audioKey ? [] : [SegmentChange(index: 0, range: whole, video: false, audio: true)]
        }
        let aligned = zip(old.segments, new.segments).allSatisfy { $0.timeRange == $1.timeRange }
            || (old.segments.first?.timeRange.duration == new.segments.first?.timeRange.duration
                && old.graph.videoComposition.frameDuration == new.graph.videoComposition.frameDuration)
        var found: [SegmentChange] = []
        // The new side's segments: what a render of it renders (the old side's beyond its end are `removed`).
        for (i, b) in new.segments.enumerated() {
            let a = i < old.segments.count ? old.segments[i] : nil
            guard aligned, let a, a.timeRange == b.timeRange else {
                found.append(SegmentChange(index: i, range: b.timeRange, video: true, audio: hasAudio))
                continue
            }
            let video = a.key != b.key, audio = hasAudio && a.audioKey != b.audioKey
            if video || audio { found.append(SegmentChange(index: i, range: b.timeRange, video: video, audio: audio)) }
        }
        return found
    }
}
