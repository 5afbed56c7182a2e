import MediaTime

/// A unit a length is written in: `48px`, `50%`, `100vw`, `8vmin`.
public enum LengthUnit: String, CaseIterable, Sendable {
    case px
    /// Of a reference length the place that reads it decides (the frame along that axis for a
    /// position or a size, the source for a crop edge).
    case percent = "%"
    /// Hundredths of the frame's width, height, shorter side, longer side.
    case vw, vh, vmin, vmax

    /// The units as a person writes them: "px, %, vw, vh, vmin, vmax".
    public static let written = allCases.map(\.rawValue).joined(separator: ", ")
}

/// The value of a length expression, exact: a plain number (`2`, `{{ n }} * 3`), or a length
/// as a sum of units (`100vw - 96px` is one vw-term and one px-term).
public enum Quantity: Sendable, Hashable {
    case number(Rational)
    case length(LengthSum)
}

/// A length as the sum of its units' terms, each an exact rational count of that unit:
/// `"(50% - 10px) / 2"` is 25 % and −5 px.
public struct LengthSum: Sendable, Hashable {
    /// How many of each unit; a unit not written is absent.
    public private(set) var terms: [LengthUnit: Rational]

    public init(_ terms: [LengthUnit: Rational] = [:]) { self.terms = terms }

    public subscript(unit: LengthUnit) -> Rational { terms[unit] ?? .zero }

    /// The sum's frame units made pixels for a `width` × `height` frame, and what is left of
    /// it: pixels, and a fraction of the reference `%` is of (`50%` → 1/2). Nil when a value
    /// does not fit an exact rational.
    public func resolved(frameWidth width: Int, frameHeight height: Int) -> (pixels: Rational, fraction: Rational)? {
        let hundredth = Rational(1, 100)
        let sides: [(LengthUnit, Int)] = [(.vw, width), (.vh, height), (.vmin, min(width, height)), (.vmax, max(width, height))]
        var pixels = self[.px]
        for (unit, side) in sides {
            guard let part = self[unit].multiplied(by: Rational(side)).flatMap({ $0.multiplied(by: hundredth) }),
                  let sum = pixels.adding(part) else { return nil }
            pixels = sum
        }
        guard let fraction = self[.percent].multiplied(by: hundredth) else { return nil }
        return (pixels, fraction)
    }

    /// Term by term; nil on overflow.
    func combined(with other: LengthSum, _ op: (Rational, Rational) -> Rational?) -> LengthSum? {
        var result = terms
        for (unit, value) in other.terms {
            guard let combined = op(self[unit], value) else { return nil }
            result[unit] = combined
        }
        return LengthSum(result)
    }

    /// Every term times `factor`; nil on overflow.
    func scaled(by factor: Rational, dividing: Bool = false) -> LengthSum? {
        var result: [LengthUnit: Rational] = [:]
        for (unit, value) in terms {
            guard let scaled = dividing ? value.divided(by: factor) : value.multiplied(by: factor) else { return nil }
            result[unit] = scaled
        }
        return LengthSum(result)
    }
}
