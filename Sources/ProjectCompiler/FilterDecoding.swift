import CompositionGraph
import Looks
import ProjectFile

/// One entry of a clip's or track's `filters:` as written: its look and a value for each of
/// the look's parameters, numbers animatable like a transform's, LUT files absolute with where
/// they are named.
public struct FilterSpec: Sendable {
    public typealias Value = LookValue<Animated<Double>, Color, (path: String, origin: Origin)>

    public var look: Look
    public var values: [String: Value]
}

extension ProjectDecoder {
    /// `filters:` of a clip or a video track (the schema has checked each entry's keys).
    mutating func decodeFilters(_ c: NodeCursor?) -> [FilterSpec] {
        c?.elements.compactMap { decodeFilter($0) } ?? []
    }

    /// Each parameter as its look describes it, in order; nil at the first required one that
    /// is unusable (already reported).
    private mutating func decodeFilter(_ c: NodeCursor) -> FilterSpec? {
        guard let look = c["type"]?.string.flatMap(Look.named) else { return nil }
        var values: [String: FilterSpec.Value] = [:]
        for parameter in look.parameters {
            let written = c[parameter.name]
            switch parameter.kind {
            case .number(let value, let bounds):
                values[parameter.name] = .number(bounds.map { bounded(written, default: value, $0) } ?? number(written, default: value))
            case .color:
                guard let color = written.flatMap({ color($0) }) else { return nil }
                values[parameter.name] = .color(color)
            case .lut:
                guard let written, let text = written.string, let path = filePath(written, text) else { return nil }
                values[parameter.name] = .lut((path, written.origin))
            }
        }
        return FilterSpec(look: look, values: values)
    }

    /// A number or keyframes whose every value must lie in `bounds` (what the schema cannot say
    /// for a signed number); each value out of them is reported where it is written.
    private mutating func bounded(_ c: NodeCursor?, default value: Double, _ bounds: LookParameter.Bounds) -> Animated<Double> {
        let animated = number(c, default: value)
        switch animated {
        case .constant(let v) where !bounds.range.contains(v):
            if let c { problems.report("\(bounds.rule); got \(c.scalarText ?? String(v))", at: c.origin) }
        case .keyframes(let frames):
            for frame in frames where !bounds.range.contains(frame.value) {
                problems.report("\(bounds.rule); got \(frame.value)", at: frame.origin)
            }
        default: break
        }
        return animated
    }
}
