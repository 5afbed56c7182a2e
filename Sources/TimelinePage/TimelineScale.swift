import CompositionGraph
import MediaTime

/// A position or length across the time area, in ten-thousandths of a percent of its width
/// (`476190` is 47.6190 %). Boxes are placed in these integer units, so a box's right edge and
/// the next box's left edge are the same number and the bytes are stable.
struct Percent: Hashable, CustomStringConvertible {
    static let places = 4
    static let full = Percent(units: 1_000_000)

    var units: Int64

    static func - (a: Percent, b: Percent) -> Percent { Percent(units: a.units - b.units) }

    /// `47.6190` (always four decimals).
    var description: String { Decimal.fixed(units, places: Self.places) }
}

/// Maps timeline time onto the page: a fraction of the duration, and the width in CSS pixels
/// the time area needs at least so that a typical clip is wide enough to read.
struct TimelineScale {
    /// The narrowest the time area gets (it fills the window when that is wider).
    static let baseWidth = 1200
    /// Bounds the page for timelines of very short clips.
    static let maximumWidth = 60_000
    /// How wide a clip of the median duration should be, in CSS pixels.
    static let typicalClipWidth = 110

    let duration: MediaTime
    let minimumWidth: Int

    init(duration: MediaTime, minimumWidth: Int) {
        self.duration = duration
        self.minimumWidth = minimumWidth
    }

    /// The scale for a graph: wide enough that its median clip gets `typicalClipWidth` pixels.
    init(graph: CompositionGraph) {
        let clips = graph.composition.tracks.flatMap(\.segments).filter { $0.content != nil }.map(\.target.duration).sorted()
        var width = Self.baseWidth
        if graph.duration.isPositive, !clips.isEmpty, clips[clips.count / 2].isPositive {
            let needed = (graph.duration / clips[clips.count / 2] * Rational(Self.typicalClipWidth)).ceiling
            width = Int(min(max(needed, Int64(Self.baseWidth)), Int64(Self.maximumWidth)))
        }
        self.init(duration: graph.duration, minimumWidth: width)
    }

    /// Where `t` is, clamped to the timeline.
    func position(_ t: MediaTime) -> Percent {
        guard duration.isPositive else { return Percent(units: 0) }
        let units = Decimal.units(t / duration * Rational(100), places: Percent.places)
        return Percent(units: min(max(units, 0), Percent.full.units))
    }

    /// `left:…%;width:…%` for a box over `range`.
    func boxStyle(_ range: TimeRange) -> String {
        let left = position(range.start)
        return "left:\(left)%;width:\(position(range.end) - left)%"
    }

    /// Time area pixels per second at the minimum width.
    var pixelsPerSecond: Rational {
        duration.isPositive ? Rational(minimumWidth) / duration.value : Rational(minimumWidth)
    }
}
