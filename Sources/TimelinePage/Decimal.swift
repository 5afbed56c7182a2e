import MediaTime

/// Exact decimal text for rationals and scaled integers: no floating point and no locale,
/// so the page's bytes do not depend on the machine.
enum Decimal {
    /// `value × 10^places` rounded to the nearest integer, halves away from zero.
    static func units(_ value: Rational, places: Int) -> Int64 {
        let scaled = Int128(value.numerator) * Int128(power(places))
        let d = Int128(value.denominator)
        let rounded = scaled >= 0 ? (2 * scaled + d) / (2 * d) : -((-2 * scaled + d) / (2 * d))
        return Int64(rounded)
    }

    /// `units / 10^places` with exactly `places` decimals: `fixed(476190, places: 4)` is `47.6190`.
    static func fixed(_ units: Int64, places: Int) -> String {
        let scale = power(places)
        let whole = String(units.magnitude / UInt64(scale))
        guard places > 0 else { return (units < 0 ? "-" : "") + whole }
        let fraction = String(units.magnitude % UInt64(scale))
        return (units < 0 ? "-" : "") + whole + "." + String(repeating: "0", count: places - fraction.count) + fraction
    }

    /// The shortest text of `value` rounded to at most `places` decimals: `29.97`, `2`, `0.333`.
    static func short(_ value: Rational, places: Int = 3) -> String {
        var text = fixed(units(value, places: places), places: places)
        if text.contains(".") {
            while text.last == "0" { text.removeLast() }
            if text.last == "." { text.removeLast() }
        }
        return text
    }

    /// The same for a drawing value (a gain, a colour channel).
    static func short(_ value: Double, places: Int = 3) -> String {
        short(Rational(Int64((value * Double(power(places))).rounded()), power(places)), places: places)
    }

    private static func power(_ places: Int) -> Int64 {
        var p: Int64 = 1
        for _ in 0..<places { p *= 10 }
        return p
    }
}
