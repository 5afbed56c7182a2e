/// Arithmetic that reports overflow instead of trapping, for values that come from outside
/// (project files, command lines): a result that does not fit in `Int64` is nil.
extension Rational {
    /// `n/d` reduced, or nil when `d` is zero or the reduced fraction does not fit in `Int64`.
    public init?(checkedNumerator n: Int128, denominator d: Int128) {
        guard d != 0 else { return nil }
        var n = n, d = d
        if d < 0 {
            guard n != .min, d != .min else { return nil }
            n = -n
            d = -d
        }
        let g = Self.gcd(n.magnitude, d.magnitude)
        if g > 1 { n /= Int128(g); d /= Int128(g) }
        guard let nn = Int64(exactly: n), let dd = Int64(exactly: d) else { return nil }
        self.init(nn, dd)
    }

    public func adding(_ other: Rational) -> Rational? {
        let (a, o1) = Int128(numerator).multipliedReportingOverflow(by: Int128(other.denominator))
        let (b, o2) = Int128(other.numerator).multipliedReportingOverflow(by: Int128(denominator))
        let (sum, o3) = a.addingReportingOverflow(b)
        guard !o1, !o2, !o3 else { return nil }
        return Rational(checkedNumerator: sum, denominator: Int128(denominator) * Int128(other.denominator))
    }

    public func subtracting(_ other: Rational) -> Rational? { adding(-other) }

    public func multiplied(by other: Rational) -> Rational? {
        Rational(checkedNumerator: Int128(numerator) * Int128(other.numerator), denominator: Int128(denominator) * Int128(other.denominator))
    }

    public func divided(by other: Rational) -> Rational? {
        guard !other.isZero else { return nil }
        return Rational(checkedNumerator: Int128(numerator) * Int128(other.denominator), denominator: Int128(denominator) * Int128(other.numerator))
    }
}
