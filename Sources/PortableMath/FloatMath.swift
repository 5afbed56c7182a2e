/// PortableMath's elementary functions in `Float`, to a shader's precision (within 2 ulp of the
/// truth for `sin`, `cos`, `exp` and `log`, 3 for `tan`, `atan2` and `pow`, over the ranges the
/// transition kernels use), with the same bits on every CPU for the same reason as the `Double`
/// ones: plain Swift arithmetic, no FMA. Their series are half the `Double` ones' length and
/// run in `Float`, so a kernel calling several a pixel stays cheap. Arguments are reduced in
/// `Double`, where the reduction is exact enough for any argument the `Double` functions take.
public enum FloatMath {
    // MARK: sin, cos

    /// sin r and cos r for |r| ≤ π/4 by their Taylor series, to r⁹ and r¹⁰ (the rest is below
    /// 2e-9 and 2e-10, a thirtieth of an ulp).
    @inlinable @inline(__always) static func kernel(_ r: Float) -> (sin: Float, cos: Float) {
        let z = r * r
        var s: Float = 0x1.71de3ap-19
        s = s * z + -0x1.a01a02p-13
        s = s * z + 0x1.111112p-7
        s = s * z + -0x1.555556p-3
        var c: Float = -0x1.27e4fcp-22
        c = c * z + 0x1.a01a02p-16
        c = c * z + -0x1.6c16c2p-10
        c = c * z + 0x1.555556p-5
        c = c * z + -0x1p-1
        return (r + r * z * s, 1 + z * c)
    }

    /// x − k·π/2 (in `Double`, then rounded to `Float`) and k mod 4.
    @inlinable @inline(__always) static func reduce(_ x: Float) -> (r: Float, quadrant: Int) {
        let (r, quadrant) = PortableMath.reduce(Double(x))
        return (Float(r), quadrant)
    }

    @inlinable public static func sin(_ x: Float) -> Float { sinAndCos(x).sin }

    @inlinable public static func cos(_ x: Float) -> Float { sinAndCos(x).cos }

    /// sin x and cos x with one reduction.
    @inlinable public static func sinAndCos(_ x: Float) -> (sin: Float, cos: Float) {
        guard x.isFinite else { return (.nan, .nan) }
        let (r, quadrant) = reduce(x)
        return PortableMath.inQuadrant(kernel(r), quadrant)
    }

    @inlinable public static func tan(_ x: Float) -> Float {
        guard x.isFinite else { return .nan }
        let (r, quadrant) = reduce(x)
        return PortableMath.tangent(kernel(r), quadrant)
    }

    // MARK: atan2

    /// atan of 0 ≤ t ≤ 1: shifted by π/6 above tan(π/12) as the `Double` one is, then the
    /// Taylor series to u¹⁵ on |u| ≤ 0.268 (the rest is below 3e-11).
    @inlinable @inline(__always) static func atanOfUnitInterval(_ t: Float) -> Float {
        let shifted = t > 0.26794919
        let u = shifted ? (t - 0.57735027) / (1 + t * 0.57735027) : t
        let z = u * u
        var p: Float = -0x1.111112p-4
        p = p * z + 0x1.3b13b2p-4
        p = p * z + -0x1.745d18p-4
        p = p * z + 0x1.c71c72p-4
        p = p * z + -0x1.24924ap-3
        p = p * z + 0x1.99999ap-3
        p = p * z + -0x1.555556p-2
        let a = u + u * z * p
        return shifted ? 0.52359878 + a : a
    }

    /// The angle of the point (x, y) in (−π, π].
    @inlinable public static func atan2(_ y: Float, _ x: Float) -> Float { PortableMath.angle(y, x, atanOfUnitInterval) }

    // MARK: exp, log, pow

    /// eˣ.
    @inlinable public static func exp(_ x: Float) -> Float {
        x.isNaN ? x : exp(power: Double(x))
    }

    /// e to a `Double` power, as a `Float`: x = k·ln 2 + r (|r| ≤ ln2/2) in `Double`, eʳ by its
    /// Taylor series to r⁸ in `Float` (the rest is below 3e-10), scaled by 2ᵏ.
    @inlinable @inline(__always) static func exp(power x: Double) -> Float {
        if x > 88.7228394 { return .infinity }
        if x < -103.972084 { return 0 }
        let k = PortableMath.roundedHalfAway(x * PortableMath.inverseLn2)
        let r = Float(x - k * 0x1.62e42fefa39efp-1)
        var p: Float = 0x1.a01a02p-16
        p = p * r + 0x1.a01a02p-13
        p = p * r + 0x1.6c16c2p-10
        p = p * r + 0x1.111112p-7
        p = p * r + 0x1.555556p-5
        p = p * r + 0x1.555556p-3
        p = p * r + 0x1p-1
        let y = 1 + (r + r * r * p)
        return Float(sign: .plus, exponent: Int(k), significand: y)
    }

    /// The natural logarithm.
    @inlinable public static func log(_ x: Float) -> Float {
        if x.isNaN || x < 0 { return .nan }
        if x == 0 { return -.infinity }
        if x == .infinity { return x }
        return Float(logOfPositive(x))
    }

    /// log x for a finite x > 0, in `Double`: x = m·2ᵉ with √½ ≤ m < √2, e·ln 2 in `Double` and
    /// log m = 2·atanh(s) with s = (m − 1)/(m + 1) by its series to s¹¹ in `Float` (|s| ≤ 0.172;
    /// the rest is below 1e-9), so the sum is good to a few 1e-8 absolute (what `pow` needs).
    @inlinable @inline(__always) static func logOfPositive(_ x: Float) -> Double {
        var value = x, e = 0
        if value < Float.leastNormalMagnitude { value *= 0x1p25; e = -25 }
        e += Int(value.exponent)
        var m = value.significand
        if m > 1.41421356 { m /= 2; e += 1 }
        let s = (m - 1) / (m + 1), z = s * s
        var p: Float = 0x1.745d18p-4
        p = p * z + 0x1.c71c72p-4
        p = p * z + 0x1.24924ap-3
        p = p * z + 0x1.99999ap-3
        p = p * z + 0x1.555556p-2
        let logM = 2 * s + 2 * s * z * p
        return Double(e) * 0x1.62e42fefa39efp-1 + Double(logM)
    }

    /// xʸ for x ≥ 0, and for negative x with an integer y (|y| ≤ 64): integer powers by repeated
    /// squaring (in `Double`, exact where the result is), others as e^(y·log x) with the
    /// logarithm and the product in `Double`.
    @inlinable public static func pow(_ x: Float, _ y: Float) -> Float {
        if y == 0 || x == 1 { return 1 }
        if x.isNaN || y.isNaN { return .nan }
        if x == 0 { return y > 0 ? 0 : .infinity }
        if abs(y) <= 64, y == y.rounded(.towardZero) { return Float(PortableMath.integerPower(Double(x), Int(y))) }
        if x < 0 { return .nan }
        if x == .infinity { return y > 0 ? .infinity : 0 }
        return exp(power: Double(y) * logOfPositive(x))
    }
}
