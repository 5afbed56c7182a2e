import Foundation
import MediaTime

/// An interchange timeline as OpenTimelineIO JSON (`Timeline.1`, `Clip.1`, `Gap.1`,
/// `Transition.1`, `ExternalReference.1`, `LinearTimeWarp.1`, `Marker.2`), the versions every
/// OpenTimelineIO release since 0.15 reads. Times are frames at the timeline's rate (at the
/// time's own denominator when not whole), so OpenTimelineIO reads back the exact times.
public enum OTIOWriter {
    public static func json(_ timeline: InterchangeTimeline) -> String {
        let tracks = timeline.tracks.map { track in
            object("Track.1", [("name", .string(track.name)), ("kind", .string(track.kind.rawValue)),
                               ("children", .list(track.items.map { item(timeline.rate, $0) })),
                               ("source_range", .null), ("effects", .list([])), ("markers", .list([])), ("metadata", .map([]))])
        }
        let markers = timeline.markers.map { m in
            object("Marker.2", [("name", .string(m.name))] + (m.color.map { [("color", TextValue.string($0))] } ?? []) + [
                ("marked_range", range(timeline.rate, TimeRange(start: m.at, duration: m.duration))), ("metadata", .map([])),
            ])
        }
        let stack = object("Stack.1", [("name", .string("tracks")), ("children", .list(tracks)), ("source_range", .null),
                                       ("effects", .list([])), ("markers", .list(markers)), ("metadata", .map([]))])
        let root = object("Timeline.1", [("name", .string(timeline.name ?? "")), ("global_start_time", .null), ("tracks", stack), ("metadata", .map([]))])
        return ProjectText.json(root, indent: 0) + "\n"
    }

    private static func item(_ rate: Rational, _ item: InterchangeItem) -> TextValue {
        switch item {
        case .gap(let d, _):
            return object("Gap.1", [("name", .string("")), ("source_range", range(rate, TimeRange(start: .zero, duration: d))),
                                    ("effects", .list([])), ("markers", .list([])), ("metadata", .map([]))])
        case .transition(let t):
            let type = t.kind == "crossfade" ? "SMPTE_Dissolve" : t.kind.hasPrefix("wipe") ? "SMPTE_Wipe" : "Custom_Transition"
            return object("Transition.1", [("name", .string("")), ("transition_type", .string(type)),
                                           ("in_offset", time(rate, t.inOffset)), ("out_offset", time(rate, t.outOffset)),
                                           ("metadata", .map([TextEntry("reel", .map([TextEntry("transition", .string(t.kind))]))]))])
        case .clip(let c):
            let reference: TextValue
            switch c.source {
            case .color(let color):
                reference = object("GeneratorReference.1", [("name", .string("")), ("generator_kind", .string("SolidColor")),
                                                            ("parameters", .map([TextEntry("color", .string(color))])),
                                                            ("available_range", .null), ("metadata", .map([]))])
            case .media(let m):
                if let path = m.path {
                    reference = object("ExternalReference.1", [("name", .string(m.key)), ("target_url", .string(url(path))),
                                                               ("available_range", .null), ("metadata", .map([]))])
                } else {
                    reference = object("MissingReference.1", [("name", .string(m.key)), ("available_range", .null), ("metadata", .map([]))])
                }
            }
            let effects: [TextValue] = c.speed == .one ? [] : [object("LinearTimeWarp.1", [
                ("name", .string("")), ("effect_name", .string("LinearTimeWarp")), ("time_scalar", .number(double(c.speed))), ("metadata", .map([])),
            ])]
            return object("Clip.1", [("name", .string(c.name)), ("source_range", range(rate, c.sourceRange)), ("media_reference", reference),
                                     ("effects", .list(effects)), ("markers", .list([])), ("enabled", .bool(true)), ("metadata", .map([]))])
        }
    }

    private static func object(_ schema: String, _ members: [(String, TextValue)]) -> TextValue {
        .map([TextEntry("OTIO_SCHEMA", .string(schema))] + members.map { TextEntry($0.0, $0.1) })
    }

    static func range(_ rate: Rational, _ r: TimeRange) -> TextValue {
        object("TimeRange.1", [("start_time", time(rate, r.start)), ("duration", time(rate, r.duration))])
    }

    /// `RationalTime.1` at `rate`, or at the time's own denominator when it is not a whole frame.
    static func time(_ rate: Rational, _ t: MediaTime) -> TextValue {
        let frames = t.value * rate
        let (value, r) = frames.isInteger ? (frames.numerator, rate) : (t.value.numerator, Rational(t.value.denominator))
        return object("RationalTime.1", [("rate", .number(double(r))), ("value", .number("\(value)"))])
    }

    /// The shortest decimal that reads back as the double nearest to `r` (`29.97002997002997`).
    static func double(_ r: Rational) -> String {
        r.isInteger ? "\(r.numerator)" : "\(Double(r.numerator) / Double(r.denominator))"
    }

    static func url(_ path: String) -> String {
        guard path.hasPrefix("/") else { return path }
        return "file://" + (path.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? path)
    }
}
