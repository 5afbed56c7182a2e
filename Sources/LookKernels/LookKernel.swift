import Looks

/// A look's pixels: how the values of its parameters at one instant (`LookSettings`) become a
/// `PictureLook`, integer or fixed-point maths on pictures the caller owns. Each look of
/// `Look.all` (module Looks, its description) has one, in its own folder here.
public struct LookKernel: Sendable {
    public let look: Look
    private let make: @Sendable (LookSettings) -> (any PictureLook)?

    init(_ look: Look, make: @escaping @Sendable (LookSettings) -> (any PictureLook)?) {
        self.look = look
        self.make = make
    }

    /// The look with its parameters at one instant, ready to change pixels; nil when it leaves
    /// the picture as it is.
    public func prepare(_ settings: LookSettings) -> (any PictureLook)? { make(settings) }

    /// Every look's kernel, in `Look.all`'s order: a new look's is added here (see Sources/Looks/README.md).
    public static let all: [LookKernel] = [.blur, .color, .lut, .chromaKey]

    private static let byName = Dictionary(uniqueKeysWithValues: all.map { ($0.look.name, $0) })

    /// The kernel of `look`: every look has one (LooksTests checks).
    public static func of(_ look: Look) -> LookKernel {
        guard let kernel = byName[look.name] else { preconditionFailure("the look \(look.name) has no kernel in LookKernel.all") }
        return kernel
    }
}

/// A look's parameters at one instant, by name: what a kernel reads.
public struct LookSettings {
    public typealias Value = LookValue<Double, YUVColor, PreparedLUT>
    let values: [String: Value]

    public init(_ values: [String: Value]) { self.values = values }

    func number(_ name: String) -> Double {
        guard case .number(let v)? = values[name] else { preconditionFailure("no number for \(name)") }
        return v
    }

    func color(_ name: String) -> YUVColor {
        guard case .color(let c)? = values[name] else { preconditionFailure("no colour for \(name)") }
        return c
    }

    func lut(_ name: String) -> PreparedLUT {
        guard case .lut(let l)? = values[name] else { preconditionFailure("no LUT for \(name)") }
        return l
    }
}
