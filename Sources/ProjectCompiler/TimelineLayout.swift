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
    /// Every overlay where it is drawn, in drawing order (`Project.overlaysInDrawingOrder`).
    public var overlays: [PlacedOverlay] = []

    /// An overlay and the range it is drawn over, its clip's span and the timeline's end
    /// worked in.
    public struct PlacedOverlay: Sendable {
        public var overlay: Overlay
        public var range: TimeRange

        /// Where the overlay is written (`overlays[2]`, `video[0].clips[1].overlays[0]`).
        public var path: String { overlay.origin.path }
    }
}

extension TimelineLayout.Placed {
    init<Clip>(_ p: PlacedClip<Clip>) {
        self.init(item: p.index, target: p.target, source: p.source, transitionIn: p.transitionIn.map { ($0.transition, $0.range) })
    }
}
