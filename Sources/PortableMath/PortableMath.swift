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
    private static let ln2Hi = 6.93147180369123816490e-01
    private static let ln2Lo = 1.90821492927058770002e-10
    private static let inverseLn2 = 1.44269504088896338700e+00
    private static let inverseLn10 = 4.34294481903251827651e-01

    /// eˣ.
    public static func exp(_ x: Double) -> Double {
        if x.isNaN { return x }
        if x > 709.782712893384 { return .infinity }
        if x < -745.1332191019412 { return 0 }
        let k = (x * inverseLn2).rounded()
        let r = (x - k * ln2Hi) - k * ln2Lo // |r| ≤ ln2/2
        let y = 1 + (r + r * r * horner(expSeries, r))
        return Double(sign: .plus, exponent: Int(k), significand: y)
    }

    /// n! for 0 ≤ n ≤ 20, exact.
    private static let factorials: [Double] = (1...20).reduce(into: [1]) { f, n in f.append(f[n - 1] * Double(n)) }

    /// (eʳ − 1 − r)/r² = Σ rⁿ⁻²/n! for n = 2…13 (the rest is below 5e-18 for |r| ≤ 0.347).
    private static let expSeries: [Double] = (2...13).map { 1 / factorials[$0] }
    /// (sin r − r)/r³ as a series in z = r², to r¹⁷ (the rest is below 1e-19 for |r| ≤ π/4).
    private static let sinSeries: [Double] = stride(from: 3, through: 17, by: 2).map { n in (n % 4 == 1 ? 1 : -1) / factorials[n] }
    /// (cos r − 1)/r² in z = r², to r¹⁸.
    private static let cosSeries: [Double] = stride(from: 2, through: 18, by: 2).map { n in (n % 4 == 0 ? 1 : -1) / factorials[n] }
    /// (log(1+f) series) R(z)/z = Σ 2zᵏ⁻¹/(2k+1) for k = 1…11 (the rest is below 2e-18 for z ≤ 0.0295).
    private static let logSeries: [Double] = (1...11).map { k in 2 / Double(2 * k + 1) }
    /// (atan u − u)/u³ in z = u², to u²⁹ (the rest is below 2e-18 for |u| ≤ 0.268).
    private static let atanSeries: [Double] = stride(from: 3, through: 29, by: 2).map { n in (n % 4 == 1 ? 1 : -1) / Double(n) }

    /// c₀ + c₁z + c₂z² + … by Horner's rule.
    private static func horner(_ coefficients: [Double], _ z: Double) -> Double {
        var i = coefficients.count - 1, p = coefficients[i]
        while i > 0 {
            i -= 1
            p = p * z + coefficients[i]
        }
        return p
    }

    /// The natural logarithm.
    public static func log(_ x: Double) -> Double {
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
        let logM = f - s * (f - z * horner(logSeries, z))
        let ed = Double(e)
        return ed * ln2Hi + (logM + ed * ln2Lo)
    }

    /// The base-10 logarithm.
    public static func log10(_ x: Double) -> Double { log(x) * inverseLn10 }

    /// xʸ for x ≥ 0, and for negative x with an integer y (|y| ≤ 64).
    public static func pow(_ x: Double, _ y: Double) -> Double {
        if y == 0 || x == 1 { return 1 }
        if x.isNaN || y.isNaN { return .nan }
        if x == 0 { return y > 0 ? 0 : .infinity }
        if abs(y) <= 64, y == y.rounded() { return integerPower(x, Int(y)) }
        if x < 0 { return .nan }
        return exp(y * log(x))
    }

    /// xⁿ by repeated squaring: exact whenever the result and the squares are (2¹⁰ is 1024).
    private static func integerPower(_ x: Double, _ n: Int) -> Double {
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
    private static let halfPi1 = 1.57079632673412561417e+00
    private static let halfPi2 = 6.07710050630396597660e-11
    private static let halfPi3 = 2.02226624871116645580e-21
    private static let twoOverPi = 6.36619772367581382433e-01

    /// x − k·π/2 with |result| ≤ π/4, and k mod 4 (the quadrant).
    private static func reduce(_ x: Double) -> (r: Double, quadrant: Int) {
        let k = (x * twoOverPi).rounded()
        let r = ((x - k * halfPi1) - k * halfPi2) - k * halfPi3
        let quadrant = Int(k.truncatingRemainder(dividingBy: 4))
        return (r, (quadrant + 4) % 4)
    }

    /// sin and cos of |r| ≤ π/4 by their Taylor series.
    private static func kernel(_ r: Double) -> (sin: Double, cos: Double) {
        let z = r * r
        return (r + r * z * horner(sinSeries, z), 1 + z * horner(cosSeries, z))
    }

    public static func sin(_ x: Double) -> Double {
        guard x.isFinite else { return .nan }
        let (r, quadrant) = reduce(x), k = kernel(r)
        switch quadrant {
        case 0: return k.sin
        case 1: return k.cos
        case 2: return -k.sin
        default: return -k.cos
        }
    }

    public static func cos(_ x: Double) -> Double {
        guard x.isFinite else { return .nan }
        let (r, quadrant) = reduce(x), k = kernel(r)
        switch quadrant {
        case 0: return k.cos
        case 1: return -k.sin
        case 2: return -k.cos
        default: return k.sin
        }
    }

    public static func tan(_ x: Double) -> Double {
        guard x.isFinite else { return .nan }
        let (r, quadrant) = reduce(x), k = kernel(r)
        return quadrant % 2 == 0 ? k.sin / k.cos : -k.cos / k.sin
    }

    /// (cos, sin) of an angle in degrees, exact for multiples of 90° (so a quarter turn moves
    /// pixels onto pixels).
    public static func cosineAndSine(degrees: Double) -> (cos: Double, sin: Double) {
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

    private static let piOver6 = 5.23598775598298815658e-01
    private static let inverseSqrt3 = 5.77350269189625731059e-01

    /// atan of 0 ≤ t ≤ 1: atan(t) = π/6 + atan((t − 1/√3)/(1 + t/√3)) above tan(π/12), then
    /// the Taylor series on |u| ≤ 0.268.
    private static func atanOfUnitInterval(_ t: Double) -> Double {
        let shifted = t > 0.2679491924311227
        let u = shifted ? (t - inverseSqrt3) / (1 + t * inverseSqrt3) : t
        let a = u + u * (u * u) * horner(atanSeries, u * u)
        return shifted ? piOver6 + a : a
    }

    /// The angle of the point (x, y) in (−π, π].
    public static func atan2(_ y: Double, _ x: Double) -> Double {
        if x.isNaN || y.isNaN { return .nan }
        if y == 0 { return x > 0 || (x == 0 && x.sign == .plus) ? y : (y.sign == .minus ? -Double.pi : Double.pi) }
        if x == 0 || (y.isInfinite && x.isFinite) { return y > 0 ? Double.pi / 2 : -Double.pi / 2 }
        let ay = abs(y), ax = abs(x)
        var a: Double
        if ay.isInfinite && ax.isInfinite { a = Double.pi / 4 }
        else if ax.isInfinite { a = 0 }
        else if ay <= ax { a = atanOfUnitInterval(ay / ax) }
        else { a = Double.pi / 2 - atanOfUnitInterval(ax / ay) }
        if x < 0 { a = Double.pi - a }
        return y < 0 ? -a : a
    }
}
