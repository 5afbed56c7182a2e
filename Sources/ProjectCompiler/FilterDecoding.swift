import CompositionGraph
import ProjectFile

/// One entry of a clip's or track's `filters:` as written, numbers animatable like a transform's.
public enum FilterSpec: Sendable {
    case blur(radius: Animated<Double>)
    case color(brightness: Animated<Double>, contrast: Animated<Double>, saturation: Animated<Double>, temperature: Animated<Double>)
    /// `file` is absolute; `origin` is where it is named.
    case lut(file: String, intensity: Animated<Double>, origin: Origin)
    case chromaKey(color: Color, similarity: Animated<Double>, softness: Animated<Double>, spill: Animated<Double>)
}

extension FilterSpec {
    /// Largest blur radius (standard deviation, pixels): beyond a frame's size a blur is a flat colour.
    static let maximumBlurRadius = 1000.0
    static let neutralTemperature = 6500.0
    static let temperatures = 1000.0...40000.0
    static let defaultSimilarity = 0.4, defaultSoftness = 0.1, defaultSpill = 0.5
}

extension ProjectDecoder {
    /// `filters:` of a clip or a video track (the schema has checked each entry's keys).
    mutating func decodeFilters(_ c: NodeCursor?) -> [FilterSpec] {
        c?.elements.compactMap { decodeFilter($0) } ?? []
    }

    private mutating func decodeFilter(_ c: NodeCursor) -> FilterSpec? {
        switch c["type"]?.string {
        case "blur":
            return .blur(radius: bounded(c["radius"], default: 0, 0...FilterSpec.maximumBlurRadius,
                                         "a blur radius is from 0 to \(Int(FilterSpec.maximumBlurRadius)) pixels"))
        case "color":
            return .color(brightness: bounded(c["brightness"], default: 0, -1...1, "brightness is from -1 to 1 (0 leaves the picture)"),
                          contrast: bounded(c["contrast"], default: 1, 0...10, "contrast is from 0 to 10 (1 leaves the picture)"),
                          saturation: bounded(c["saturation"], default: 1, 0...10, "saturation is from 0 to 10 (1 leaves the picture)"),
                          temperature: bounded(c["temperature"], default: FilterSpec.neutralTemperature, FilterSpec.temperatures,
                                               "temperature is in kelvin, from 1000 to 40000 (6500 leaves the picture)"))
        case "lut":
            guard let file = c["file"], let path = file.string else { return nil }
            return .lut(file: absolutePath(path), intensity: number(c["intensity"], default: 1), origin: file.origin)
        case "chroma_key":
            guard let key = c["color"].flatMap({ color($0) }) else { return nil }
            return .chromaKey(color: key, similarity: number(c["similarity"], default: FilterSpec.defaultSimilarity),
                              softness: number(c["softness"], default: FilterSpec.defaultSoftness),
                              spill: number(c["spill"], default: FilterSpec.defaultSpill))
        default:
            return nil
        }
    }

    /// A number or keyframes whose every value must lie in `range` (what the schema cannot say
    /// for a signed number); each value out of it is reported where it is written.
    private mutating func bounded(_ c: NodeCursor?, default value: Double, _ range: ClosedRange<Double>, _ rule: String) -> Animated<Double> {
        let animated = number(c, default: value)
        switch animated {
        case .constant(let v) where !range.contains(v):
            if let c { problems.report("\(rule); got \(c.scalarText ?? String(v))", at: c.origin) }
        case .keyframes(let frames):
            for frame in frames where !range.contains(frame.value) {
                problems.report("\(rule); got \(frame.value)", at: frame.origin)
            }
        default: break
        }
        return animated
    }
}
