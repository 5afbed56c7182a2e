import CompositionGraph
import MediaTime

/// Where the project's clips landed, track by track, with the facts of their media: what
/// exporters to editing systems read (the graph's A/B composition tracks no longer say which
/// clip is which).
public struct TimelineLayout: Sendable {
    public struct Placed: Sendable {
        /// The clip's index in its track's items.
        public var item: Int
        /// Timeline range.
        public var target: TimeRange
        /// Source range; nil for colour clips and stills.
        public var source: TimeRange?
        /// The transition into this clip and its timeline range.
        public var transitionIn: (transition: Transition, range: TimeRange)?
    }

    /// Bottom to top.
    public var video: [[Placed]]
    public var audio: [[Placed]]
    /// The media clips use, by name.
    public var media: [String: MediaReference]
}

extension TimelineLayout.Placed {
    init<Clip>(_ p: PlacedClip<Clip>) {
        self.init(item: p.index, target: p.target, source: p.source, transitionIn: p.transitionIn.map { ($0.transition, $0.range) })
    }
}
