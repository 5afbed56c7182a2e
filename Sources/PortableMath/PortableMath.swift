/// Elementary functions that give the same bits on every CPU.
///
/// glibc picks its `sin`, `cos`, `exp`, `log`, `pow`, `atan2`… at load time by CPU: with FMA
/// (Haswell and later) they fuse multiply and add and round differently, so the same call gave
/// other last bits on a CPU without FMA (measured: 2 million arguments each, under
/// `qemu-x86_64 -cpu Nehalem` and `-cpu Haswell`). Everything that shapes Reel's output (audio
/// filters, gains, windows, rotations, arcs) calls these instead: plain Swift arithmetic, which
/// compiles to the same SSE2 instructions on every x86-64 CPU and rounds the same way.
///
/// Accuracy: within 2 ulp for `sin`, `cos`, `exp`, `log`, `atan2` and 3 for `tan` over the
/// ranges Reel uses (`sin`/`cos` keep it for |x| < 2²⁰·π/2); `pow` is exact by repeated
/// squaring for integer exponents up to 64, else `exp(y·log x)`, within 1e-13 relative for
/// |y·log x| < 700. Tested against glibc.
public enum PortableMath {
    // MARK: exp and log

    /// ln 2 in two parts: the first has 32 significant bits, so `k * ln2Hi` is exact for
    /// |k| < 2²¹.
    @inlinable static var ln2Hi: Double { 6.93147180369123816490e-01 }
    @inlinable static var ln2Lo: Double { 1.90821492927058770002e-10 }
    @inlinable static var inverseLn2: Double { 1.44269504088896338700e+00 }
    @inlinable static var inverseLn10: Double { 4.34294481903251827651e-01 }

    /// v rounded to the nearest whole number, halves away from zero, exactly as `v.rounded()`
    /// (−0.3 gives −0), without the call to libm's round that baseline x86-64 (no SSE4.1) makes
    /// of it: through a 64-bit integer when v may have a fraction (|v| < 2⁵²; v − t is then exact).
    @inlinable @inline(__always) static func roundedHalfAway(_ v: Double) -> Double {
        guard abs(v) < 0x1p52 else { return v.rounded() }
        let t = Double(Int64(v)), d = v - t
        let r = d >= 0.5 ? t + 1 : d <= -0.5 ? t - 1 : t
        return r == 0 ? 0 * v : r
    }

    /// eˣ.
    @inlinable public static func exp(_ x: Double) -> Double {
        if x.isNaN { return x }
        if x > 709.782712893384 { return .infinity }
        if x < -745.1332191019412 { return 0 }
        let k = roundedHalfAway(x * inverseLn2)
        let r = (x - k * ln2Hi) - k * ln2Lo // |r| ≤ ln2/2
        let y = 1 + (r + r * r * expSeries(r))
        return Double(sign: .plus, exponent: Int(k), significand: y)
    }

    // The series' coefficients are written out (hexadecimal, each the correctly rounded
    // quotient it names) and summed by Horner's rule in the loop's order, c₀ + z(c₁ + z(c₂ + …)),
    // innermost first: no array, no lazy global, so callers in other modules inline them. The
    // digest test pins every bit.

    /// (eʳ − 1 − r)/r² = Σ rⁿ⁻²/n! for n = 2…13 (the rest is below 5e-18 for |r| ≤ 0.347); the coefficients 1/n!.
    @inlinable @inline(__always) static func expSeries(_ z: Double) -> Double {
        var p: Double = 0x1.6124613a86d09p-33
        p = p * z + 0x1.1eed8eff8d898p-29
        p = p * z + 0x1.ae64567f544e4p-26
        p = p * z + 0x1.27e4fb7789f5cp-22
        p = p * z + 0x1.71de3a556c734p-19
        p = p * z + 0x1.a01a01a01a01ap-16
        p = p * z + 0x1.a01a01a01a01ap-13
        p = p * z + 0x1.6c16c16c16c17p-10
        p = p * z + 0x1.1111111111111p-7
        p = p * z + 0x1.5555555555555p-5
        p = p * z + 0x1.5555555555555p-3
        p = p * z + 0x1.0000000000000p-1
        return p
    }

    /// (sin r − r)/r³ as a series in z = r², to r¹⁷ (the rest is below 1e-19 for |r| ≤ π/4); the coefficients ±1/n!.
    @inlinable @inline(__always) static func sinSeries(_ z: Double) -> Double {
        var p: Double = 0x1.952c77030ad4ap-49
        p = p * z + -0x1.ae7f3e733b81fp-41
        p = p * z + 0x1.6124613a86d09p-33
        p = p * z + -0x1.ae64567f544e4p-26
        p = p * z + 0x1.71de3a556c734p-19
        p = p * z + -0x1.a01a01a01a01ap-13
        p = p * z + 0x1.1111111111111p-7
        p = p * z + -0x1.5555555555555p-3
        return p
    }

    /// (cos r − 1)/r² in z = r², to r¹⁸; the coefficients ±1/n!.
    @inlinable @inline(__always) static func cosSeries(_ z: Double) -> Double {
        var p: Double = -0x1.6827863b97d97p-53
        p = p * z + 0x1.ae7f3e733b81fp-45
        p = p * z + -0x1.93974a8c07c9dp-37
        p = p * z + 0x1.1eed8eff8d898p-29
        p = p * z + -0x1.27e4fb7789f5cp-22
        p = p * z + 0x1.a01a01a01a01ap-16
        p = p * z + -0x1.6c16c16c16c17p-10
        p = p * z + 0x1.5555555555555p-5
        p = p * z + -0x1.0000000000000p-1
        return p
    }

    /// (log(1+f) series) R(z)/z = Σ 2zᵏ⁻¹/(2k+1) for k = 1…11 (the rest is below 2e-18 for z ≤ 0.0295); the coefficients 2/(2k + 1).
    @inlinable @inline(__always) static func logSeries(_ z: Double) -> Double {
        var p: Double = 0x1.642c8590b2164p-4
        p = p * z + 0x1.8618618618618p-4
        p = p * z + 0x1.af286bca1af28p-4
        p = p * z + 0x1.e1e1e1e1e1e1ep-4
        p = p * z + 0x1.1111111111111p-3
        p = p * z + 0x1.3b13b13b13b14p-3
        p = p * z + 0x1.745d1745d1746p-3
        p = p * z + 0x1.c71c71c71c71cp-3
        p = p * z + 0x1.2492492492492p-2
        p = p * z + 0x1.999999999999ap-2
        p = p * z + 0x1.5555555555555p-1
        return p
    }

    /// (atan u − u)/u³ in z = u², to u²⁹ (the rest is below 2e-18 for |u| ≤ 0.268); the coefficients ±1/n.
    @inlinable @inline(__always) static func atanSeries(_ z: Double) -> Double {
        var p: Double = 0x1.1a7b9611a7b96p-5
        p = p * z + -0x1.2f684bda12f68p-5
        p = p * z + 0x1.47ae147ae147bp-5
        p = p * z + -0x1.642c8590b2164p-5
        p = p * z + 0x1.8618618618618p-5
        p = p * z + -0x1.af286bca1af28p-5
        p = p * z + 0x1.e1e1e1e1e1e1ep-5
        p = p * z + -0x1.1111111111111p-4
        p = p * z + 0x1.3b13b13b13b14p-4
        p = p * z + -0x1.745d1745d1746p-4
        p = p * z + 0x1.c71c71c71c71cp-4
        p = p * z + -0x1.2492492492492p-3
        p = p * z + 0x1.999999999999ap-3
        p = p * z + -0x1.5555555555555p-2
        return p
    }

    /// The natural logarithm.
    @inlinable public static func log(_ x: Double) -> Double {
        if x.isNaN || x < 0 { return .nan }
        if x == 0 { return -.infinity }
        if x == .infinity { return x }
        // x = m · 2ᵉ with √½ ≤ m < √2 (subnormals are scaled up first; all of it is exact).
        var value = x, e = 0
        if value < Double.leastNormalMagnitude { value *= 0x1p54; e = -54 }
        e += Int(value.exponent)
        var m = value.significand
        if m > 1.4142135623730951 { m /= 2; e += 1 }
        // log(1+f) = 2·atanh(s) with s = f/(2+f), written f − s·(f − R) where
        // R = Σ 2zᵏ/(2k+1), z = s² ≤ 0.0295.
        let f = m - 1, s = f / (2 + f), z = s * s
        let logM = f - s * (f - z * logSeries(z))
        let ed = Double(e)
        return ed * ln2Hi + (logM + ed * ln2Lo)
    }

    /// The base-10 logarithm.
    @inlinable public static func log10(_ x: Double) -> Double { log(x) * inverseLn10 }

    /// xʸ for x ≥ 0, and for negative x with an integer y (|y| ≤ 64).
    @inlinable public static func pow(_ x: Double, _ y: Double) -> Double {
        if y == 0 || x == 1 { return 1 }
        if x.isNaN || y.isNaN { return .nan }
        if x == 0 { return y > 0 ? 0 : .infinity }
        if abs(y) <= 64, y == y.rounded() { return integerPower(x, Int(y)) }
        if x < 0 { return .nan }
        return exp(y * log(x))
    }

    /// xⁿ by repeated squaring: exact whenever the result and the squares are (2¹⁰ is 1024).
    @inlinable @inline(__always) static func integerPower(_ x: Double, _ n: Int) -> Double {
        var result = 1.0, square = x, e = n.magnitude
        while e > 0 {
            if e & 1 == 1 { result *= square }
            square *= square
            e >>= 1
        }
        return n < 0 ? 1 / result : result
    }

    // MARK: sin, cos, tan

    /// π/2 in three parts of 33 bits each: `k * part` is exact for |k| < 2²⁰.
    @inlinable static var halfPi1: Double { 1.57079632673412561417e+00 }
    @inlinable static var halfPi2: Double { 6.07710050630396597660e-11 }
    @inlinable static var halfPi3: Double { 2.02226624871116645580e-21 }
    @inlinable static var twoOverPi: Double { 6.36619772367581382433e-01 }

    /// x − k·π/2 with |result| ≤ π/4, and k mod 4 (the quadrant).
    @inlinable @inline(__always) static func reduce(_ x: Double) -> (r: Double, quadrant: Int) {
        let k = roundedHalfAway(x * twoOverPi)
        let r = ((x - k * halfPi1) - k * halfPi2) - k * halfPi3
        // k mod 4 in 0…3: from the integer when k is one (it is exact below 2⁵²), else by fmod.
        if abs(k) < 0x1p52 { return (r, Int(k) & 3) }
        let quadrant = Int(k.truncatingRemainder(dividingBy: 4))
        return (r, (quadrant + 4) % 4)
    }

    /// sin and cos of |r| ≤ π/4 by their Taylor series.
    @inlinable @inline(__always) static func kernel(_ r: Double) -> (sin: Double, cos: Double) {
        let z = r * r
        return (r + r * z * sinSeries(z), 1 + z * cosSeries(z))
    }

    @inlinable public static func sin(_ x: Double) -> Double { sinAndCos(x).sin }

    @inlinable public static func cos(_ x: Double) -> Double { sinAndCos(x).cos }

    /// sin x and cos x at once (one reduction; the same bits as `sin` and `cos`).
    @inlinable public static func sinAndCos(_ x: Double) -> (sin: Double, cos: Double) {
        guard x.isFinite else { return (.nan, .nan) }
        let (r, quadrant) = reduce(x)
        return inQuadrant(kernel(r), quadrant)
    }

    @inlinable public static func tan(_ x: Double) -> Double {
        guard x.isFinite else { return .nan }
        let (r, quadrant) = reduce(x)
        return tangent(kernel(r), quadrant)
    }

    /// sin x and cos x from sin r and cos r, where x = r + quadrant·π/2 (the `Double` and the
    /// `Float` functions share it).
    @inlinable @inline(__always) static func inQuadrant<T: FloatingPoint>(_ k: (sin: T, cos: T), _ quadrant: Int) -> (sin: T, cos: T) {
        switch quadrant {
        case 0: (k.sin, k.cos)
        case 1: (k.cos, -k.sin)
        case 2: (-k.sin, -k.cos)
        default: (-k.cos, k.sin)
        }
    }

    /// tan x from sin r and cos r, where x = r + quadrant·π/2.
    @inlinable @inline(__always) static func tangent<T: FloatingPoint>(_ k: (sin: T, cos: T), _ quadrant: Int) -> T {
        quadrant % 2 == 0 ? k.sin / k.cos : -k.cos / k.sin
    }

    /// (cos, sin) of an angle in degrees, exact for multiples of 90° (so a quarter turn moves
    /// pixels onto pixels).
    @inlinable public static func cosineAndSine(degrees: Double) -> (cos: Double, sin: Double) {
        let turns = degrees / 90
        if abs(turns) < 1e9, turns == turns.rounded() {
            switch ((Int(turns) % 4) + 4) % 4 {
            case 0: return (1, 0)
            case 1: return (0, 1)
            case 2: return (-1, 0)
            default: return (0, -1)
            }
        }
        let radians = degrees * Double.pi / 180
        return (cos(radians), sin(radians))
    }

    // MARK: atan2

    @inlinable static var piOver6: Double { 5.23598775598298815658e-01 }
    @inlinable static var inverseSqrt3: Double { 5.77350269189625731059e-01 }

    /// atan of 0 ≤ t ≤ 1: atan(t) = π/6 + atan((t − 1/√3)/(1 + t/√3)) above tan(π/12), then
    /// the Taylor series on |u| ≤ 0.268.
    @inlinable @inline(__always) static func atanOfUnitInterval(_ t: Double) -> Double {
        let shifted = t > 0.2679491924311227
        let u = shifted ? (t - inverseSqrt3) / (1 + t * inverseSqrt3) : t
        let a = u + u * (u * u) * atanSeries(u * u)
        return shifted ? piOver6 + a : a
    }

    /// The angle of the point (x, y) in (−π, π].
    @inlinable public static func atan2(_ y: Double, _ x: Double) -> Double { angle(y, x, atanOfUnitInterval) }

    /// The angle of the point (x, y) in (−π, π] from atan on 0…1 (the `Double` and the `Float`
    /// functions share it): the special values, then the octant.
    @inlinable @inline(__always) static func angle<T: FloatingPoint>(_ y: T, _ x: T, _ atanOfUnitInterval: (T) -> T) -> T {
        if x.isNaN || y.isNaN { return .nan }
        if y == 0 { return x > 0 || (x == 0 && x.sign == .plus) ? y : (y.sign == .minus ? -T.pi : T.pi) }
        if x == 0 || (y.isInfinite && x.isFinite) { return y > 0 ? T.pi / 2 : -T.pi / 2 }
        let ay = abs(y), ax = abs(x)
        var a: T
        if ay.isInfinite && ax.isInfinite { a = T.pi / 4 }
        else if ax.isInfinite { a = 0 }
        else if ay <= ax { a = atanOfUnitInterval(ay / ax) }
        else { a = T.pi / 2 - atanOfUnitInterval(ax / ay) }
        if x < 0 { a = T.pi - a }
        return y < 0 ? -a : a
    }
}
