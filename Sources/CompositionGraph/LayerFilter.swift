import Looks
import MediaTime

/// A look applied to a layer's picture before it is placed and composited: a clip's own
/// filters, then its track's, in list order. It holds a value for each of its look's
/// parameters: numbers are ramps in timeline time like a layer's transform (instructions hold
/// them sliced to their own range), LUT files absolute paths.
public struct LayerFilter: Hashable, Sendable {
    public typealias Value = LookValue<Animation, Color, String>

    public let look: Look
    /// By parameter name, one for each of the look's parameters.
    public var values: [String: Value]

    public init(_ look: Look, _ values: [String: Value]) {
        precondition(values.count == look.parameters.count && look.parameters.allSatisfy { values[$0.name] != nil },
                     "a \(look.name) filter has a value for each of its parameters, not \(values.keys.sorted())")
        self.look = look
        self.values = values
    }

    public func sliced(to range: TimeRange) -> LayerFilter {
        LayerFilter(look, values.mapValues { value in
            guard case .number(let animation) = value else { return value }
            return .number(animation.sliced(to: range))
        })
    }
}

/// `{"blur": {"radius": …}}`, or `{"color": {"_0": {…}}}` for a look that nests its
/// parameters (`Look.graphKey`), each parameter's value in its own type's form.
extension LayerFilter: Codable {
    private struct Key: CodingKey {
        let stringValue: String
        init(_ name: String) { stringValue = name }
        init?(stringValue: String) { self.init(stringValue) }
        var intValue: Int? { nil }
        init?(intValue: Int) { nil }
    }

    public func encode(to encoder: any Encoder) throws {
        var outer = encoder.container(keyedBy: Key.self)
        var c = outer.nestedContainer(keyedBy: Key.self, forKey: Key(look.graphKey))
        if look.nestsParameters { c = c.nestedContainer(keyedBy: Key.self, forKey: Key("_0")) }
        for parameter in look.parameters {
            let key = Key(parameter.name)
            switch values[parameter.name]! {
            case .number(let animation): try c.encode(animation, forKey: key)
            case .color(let color): try c.encode(color, forKey: key)
            case .lut(let path): try c.encode(path, forKey: key)
            }
        }
    }

    public init(from decoder: any Decoder) throws {
        let outer = try decoder.container(keyedBy: Key.self)
        guard let name = outer.allKeys.first, let look = Look.all.first(where: { $0.graphKey == name.stringValue }) else {
            throw DecodingError.dataCorrupted(DecodingError.Context(codingPath: decoder.codingPath, debugDescription: "not a known look"))
        }
        var c = try outer.nestedContainer(keyedBy: Key.self, forKey: name)
        if look.nestsParameters { c = try c.nestedContainer(keyedBy: Key.self, forKey: Key("_0")) }
        var values: [String: Value] = [:]
        for parameter in look.parameters {
            let key = Key(parameter.name)
            switch parameter.kind {
            case .number: values[parameter.name] = .number(try c.decode(Animation.self, forKey: key))
            case .color: values[parameter.name] = .color(try c.decode(Color.self, forKey: key))
            case .lut: values[parameter.name] = .lut(try c.decode(String.self, forKey: key))
            }
        }
        self.init(look, values)
    }
}

extension CompositionGraph {
    /// The `.cube` files the layers' filters read, each once, in the order first met.
    public var lutFiles: [String] {
        var seen = Set<String>(), result: [String] = []
        for instruction in videoComposition.instructions {
            for layer in instruction.layers {
                for filter in layer.filters {
                    for parameter in filter.look.parameters {
                        if case .lut(let file)? = filter.values[parameter.name], seen.insert(file).inserted { result.append(file) }
                    }
                }
            }
        }
        return result
    }
}
