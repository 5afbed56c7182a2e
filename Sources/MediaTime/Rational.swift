/// An exact fraction `numerator / denominator`, always reduced, denominator > 0.
///
/// Reel's clock: every time, frame rate, speed and sample rate after parsing is a
/// `Rational`, so frame n of a 30000/1001 fps output is at exactly n × 1001/30000 s however
/// long the timeline. Intermediate products use `Int128`, so adding times with unrelated
/// time scales (1/44100 and 1001/30000) stays exact; a result that does not fit in `Int64`
/// traps (it would need a timeline of millions of years).
public struct Rational: Hashable, Comparable, Sendable {
    public let numerator: Int64
    public let denominator: Int64

    public init(_ numerator: Int64, _ denominator: Int64 = 1) {
        precondition(denominator != 0, "Rational with zero denominator")
        self.init(reducing: Int128(numerator), Int128(denominator))
    }

    public init(_ integer: Int) { self.init(Int64(integer), 1) }

    /// Reduces `n/d` and narrows it to `Int64`.
    init(reducing n: Int128, _ d: Int128) {
        var n = n, d = d
        if d < 0 { n = -n; d = -d }
        let g = Self.gcd(n.magnitude, d.magnitude)
        if g > 1 { n /= Int128(g); d /= Int128(g) }
        guard let nn = Int64(exactly: n), let dd = Int64(exactly: d) else {
            preconditionFailure("Rational overflow: \(n)/\(d)")
        }
        numerator = nn
        denominator = dd
    }

    static func gcd(_ a: UInt128, _ b: UInt128) -> UInt128 {
        var a = a, b = b
        while b != 0 { (a, b) = (b, a % b) }
        return a == 0 ? 1 : a
    }

    public static let zero = Rational(0)
    public static let one = Rational(1)

    public var isZero: Bool { numerator == 0 }
    public var isNegative: Bool { numerator < 0 }
    public var isInteger: Bool { denominator == 1 }

    /// For display and for interpolation factors only; never for time arithmetic.
    public var doubleValue: Double { Double(numerator) / Double(denominator) }

    public var reciprocal: Rational { Rational(reducing: Int128(denominator), Int128(numerator)) }

    public static func + (a: Rational, b: Rational) -> Rational {
        Rational(reducing: Int128(a.numerator) * Int128(b.denominator) + Int128(b.numerator) * Int128(a.denominator),
                 Int128(a.denominator) * Int128(b.denominator))
    }
    public static func - (a: Rational, b: Rational) -> Rational { a + (-b) }
    public static prefix func - (a: Rational) -> Rational { Rational(reducing: -Int128(a.numerator), Int128(a.denominator)) }
    public static func * (a: Rational, b: Rational) -> Rational {
        Rational(reducing: Int128(a.numerator) * Int128(b.numerator), Int128(a.denominator) * Int128(b.denominator))
    }
    public static func / (a: Rational, b: Rational) -> Rational {
        precondition(!b.isZero, "Rational division by zero")
        return Rational(reducing: Int128(a.numerator) * Int128(b.denominator), Int128(a.denominator) * Int128(b.numerator))
    }
    public static func += (a: inout Rational, b: Rational) { a = a + b }
    public static func -= (a: inout Rational, b: Rational) { a = a - b }

    public static func < (a: Rational, b: Rational) -> Bool {
        Int128(a.numerator) * Int128(b.denominator) < Int128(b.numerator) * Int128(a.denominator)
    }

    /// The greatest integer ≤ self.
    public var floor: Int64 {
        let q = numerator / denominator
        return (numerator % denominator != 0 && numerator < 0) ? q - 1 : q
    }

    /// The least integer ≥ self.
    public var ceiling: Int64 { -(-self).floor }

    /// Nearest integer, halves rounded away from zero (so sample positions are symmetric).
    public var rounded: Int64 {
        let twice = Int128(numerator) * 2
        let d = Int128(denominator) * 2
        if numerator >= 0 { return Int64((twice + Int128(denominator)) / d) }
        return -Int64((-twice + Int128(denominator)) / d)
    }

    public var magnitude: Rational { isNegative ? -self : self }
}

extension Rational: CustomStringConvertible {
    /// `3/2`, `10`, `-1001/30000`: exact and stable, for listings and diffs.
    public var description: String { isInteger ? "\(numerator)" : "\(numerator)/\(denominator)" }
}

extension Rational {
    /// Parses an exact decimal or fraction: `30`, `29.97`, `-0.5`, `30000/1001`, `1e-3` is not accepted.
    public init?(exactly text: String) {
        let s = text.trimmingSpaces
        if let slash = s.firstIndex(of: "/") {
            guard let n = Rational(decimal: String(s[..<slash])), let d = Rational(decimal: String(s[s.index(after: slash)...])),
                  let q = n.divided(by: d) else { return nil }
            self = q
        } else if let r = Rational(decimal: String(s)) {
            self = r
        } else {
            return nil
        }
    }

    /// Parses `[-+]digits[.digits]` exactly (no exponent, at most 15 integer and 15 fraction
    /// digits); nil when the reduced fraction does not fit in `Int64`.
    init?(decimal text: String) {
        var chars = Substring(text)
        var negative = false
        if let first = chars.first, first == "-" || first == "+" {
            negative = first == "-"
            chars = chars.dropFirst()
        }
        let parts = chars.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        guard let intPart = parts.first,
              !(intPart.isEmpty && (parts.count < 2 || parts[1].isEmpty)),
              intPart.allSatisfy(\.isASCIIDigit), intPart.count <= 15 else { return nil }
        var numerator = Int128(Int64(intPart) ?? 0)
        var scale: Int128 = 1
        if parts.count == 2 {
            let frac = parts[1]
            guard frac.allSatisfy(\.isASCIIDigit), frac.count <= 15 else { return nil }
            if !frac.isEmpty {
                for _ in 0..<frac.count { scale *= 10 }
                numerator = numerator * scale + Int128(Int64(frac)!)
            }
        }
        guard let value = Rational(checkedNumerator: negative ? -numerator : numerator, denominator: scale) else { return nil }
        self = value
    }
}

extension Character {
    var isASCIIDigit: Bool { isASCII && isNumber }
}

extension StringProtocol {
    /// The text without leading and trailing spaces and tabs.
    var trimmingSpaces: Substring {
        var s = Substring(self)
        while let f = s.first, f == " " || f == "\t" { s = s.dropFirst() }
        while let l = s.last, l == " " || l == "\t" { s = s.dropLast() }
        return s
    }
}

extension Rational: Codable {
    /// Encoded as its exact text (`"1001/30000"`), never as a float.
    public init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        guard let r = Rational(exactly: text) else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "not a rational: \(text)"))
        }
        self = r
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.singleValueContainer()
        try c.encode(description)
    }
}
