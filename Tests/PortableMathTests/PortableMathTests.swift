import Digest
import Foundation
import PortableMath
import Testing

/// PortableMath against glibc (accuracy) and against itself on other CPUs (a digest of its
/// results recorded once: the same bits on every machine, which glibc's functions are not).
@Suite struct PortableMathTests {
    /// Deterministic arguments: xorshift64 mapped to [low, high).
    static func arguments(_ count: Int, _ low: Double, _ high: Double, seed: UInt64 = 88_172_645_463_325_252) -> [Double] {
        var s = seed
        return (0..<count).map { _ in
            s ^= s << 13; s ^= s >> 7; s ^= s << 17
            return low + (high - low) * Double(s >> 11) / 0x1p53
        }
    }

    /// Largest error in units of the last place of glibc's result (which is itself within
    /// an ulp of the truth).
    static func ulps(_ ours: Double, _ reference: Double) -> Double {
        if ours == reference { return 0 }
        return abs(ours - reference) / max(reference.ulp, Double.leastNormalMagnitude)
    }

    @Test(arguments: [
        ("sin", -100.0, 100.0), ("cos", -100.0, 100.0), ("tan", -1.5, 1.5), ("exp", -700.0, 700.0),
        ("log", 1e-300, 1e300), ("log near 1", 0.5, 2.0), ("log10", 1e-10, 1e10), ("atan2", -10.0, 10.0),
    ])
    func staysWithinItsUlpsOfGlibc(name: String, low: Double, high: Double) {
        let xs = Self.arguments(100_000, low, high), ys = Self.arguments(100_000, low, high, seed: 7)
        var worst = 0.0, worstAt = 0.0
        for (x, y) in zip(xs, ys) {
            let (ours, reference): (Double, Double) = switch name {
            case "sin": (PortableMath.sin(x), Foundation.sin(x))
            case "cos": (PortableMath.cos(x), Foundation.cos(x))
            case "tan": (PortableMath.tan(x), Foundation.tan(x))
            case "exp": (PortableMath.exp(x), Foundation.exp(x))
            case "log", "log near 1": (PortableMath.log(x), Foundation.log(x))
            case "log10": (PortableMath.log10(x), Foundation.log10(x))
            default: (PortableMath.atan2(y, x), Foundation.atan2(y, x))
            }
            // Near a zero of the function an absolute error of an ulp of 1 is what counts.
            let error = abs(reference) < 1e-3 ? abs(ours - reference) / 1.0.ulp : Self.ulps(ours, reference)
            if error > worst { worst = error; worstAt = x }
        }
        #expect(worst <= (name == "tan" ? 3 : 2), "\(name): \(worst) ulp at \(worstAt)")
    }

    @Test func powIsExpOfYLogXWithinItsBound() {
        for (x, y) in zip(Self.arguments(100_000, 1e-3, 1e3), Self.arguments(100_000, -50, 50, seed: 11)) {
            let reference = Foundation.pow(x, y)
            let relative = abs(PortableMath.pow(x, y) - reference) / reference
            #expect(relative < 1e-13, "pow(\(x), \(y))")
        }
        // The decibel conversions Reel makes.
        for db in stride(from: -60.0, through: 12, by: 0.5) {
            #expect(abs(PortableMath.pow(10, db / 20) / Foundation.pow(10, db / 20) - 1) < 1e-15, "\(db) dB")
        }
    }

    @Test func specialValuesAreExact() {
        #expect(PortableMath.sin(0) == 0 && PortableMath.cos(0) == 1 && PortableMath.tan(0) == 0)
        #expect(PortableMath.exp(0) == 1 && Self.ulps(PortableMath.exp(1), M_E) <= 1)
        #expect(PortableMath.log(1) == 0 && PortableMath.log(M_E) == 1 && PortableMath.log10(1000) == 3)
        #expect(PortableMath.log(0) == -.infinity && PortableMath.log(-1).isNaN && PortableMath.exp(1000) == .infinity)
        #expect(PortableMath.exp(-800) == 0 && PortableMath.log(Double.leastNonzeroMagnitude) == Foundation.log(Double.leastNonzeroMagnitude))
        #expect(PortableMath.pow(2, 10) == 1024 && PortableMath.pow(-2, 3) == -8 && PortableMath.pow(10, -2) == 0.01)
        #expect(PortableMath.pow(-2, 0.5).isNaN)
        #expect(PortableMath.pow(0, 2) == 0 && PortableMath.pow(0, -1) == .infinity && PortableMath.pow(7, 0) == 1)
        #expect(PortableMath.atan2(1, 1) == Double.pi / 4 && PortableMath.atan2(0, -1) == Double.pi)
        #expect(PortableMath.atan2(1, 0) == Double.pi / 2 && PortableMath.atan2(-1, 0) == -Double.pi / 2)
        #expect(PortableMath.sin(.nan).isNaN && PortableMath.cos(.infinity).isNaN)
        for (degrees, expected) in [(0.0, (1.0, 0.0)), (90, (0, 1)), (180, (-1, 0)), (-90, (0, -1)), (450, (0, 1))] {
            let (c, s) = PortableMath.cosineAndSine(degrees: degrees)
            #expect(c == expected.0 && s == expected.1, "\(degrees)°")
        }
    }

    /// The bits of every function over fixed arguments, recorded once: any CPU must give them
    /// (the cross-CPU renders under qemu check the same through whole videos).
    @Test func theBitsAreTheSameOnEveryMachine() {
        var digest = SHA256()
        func add(_ value: Double) { withUnsafeBytes(of: value.bitPattern.littleEndian) { digest.update($0) } }
        for x in Self.arguments(20_000, -20, 20) {
            add(PortableMath.sin(x)); add(PortableMath.cos(x)); add(PortableMath.tan(x)); add(PortableMath.exp(x))
            add(PortableMath.log(abs(x))); add(PortableMath.log10(abs(x))); add(PortableMath.pow(abs(x), x / 7))
            add(PortableMath.atan2(x, x * x - 3))
        }
        #expect(digest.hexDigest() == "03c1e67dc306ad414746aac30d1f5068fdb2dd7fa298a27b076565662e15b252")
    }

    @Test(arguments: [
        ("sin", -100.0, 100.0), ("cos", -100.0, 100.0), ("tan", -1.5, 1.5), ("exp", -87.0, 88.0),
        ("log", 1e-37, 1e37), ("log near 1", 0.5, 2.0), ("atan2", -10.0, 10.0), ("pow", 1e-3, 1e3),
    ])
    func theFloatFunctionsStayWithinTheirUlpsOfTheTruth(name: String, low: Double, high: Double) {
        let xs = Self.arguments(100_000, low, high).map { Float($0) }, ys = Self.arguments(100_000, low, high, seed: 7).map { Float($0) }
        var worst: Float = 0, worstAt: Float = 0
        for (x, y) in zip(xs, ys) {
            // glibc's Double result, exact to well below a Float ulp, is the truth.
            let (ours, truth): (Float, Double) = switch name {
            case "sin": (FloatMath.sin(x), Foundation.sin(Double(x)))
            case "cos": (FloatMath.cos(x), Foundation.cos(Double(x)))
            case "tan": (FloatMath.tan(x), Foundation.tan(Double(x)))
            case "exp": (FloatMath.exp(x), Foundation.exp(Double(x)))
            case "log", "log near 1": (FloatMath.log(x), Foundation.log(Double(x)))
            case "pow": (FloatMath.pow(x, y / 400), Foundation.pow(Double(x), Double(y / 400)))
            default: (FloatMath.atan2(y, x), Foundation.atan2(Double(y), Double(x)))
            }
            // Near a zero of the function an absolute error of an ulp of 1 is what counts.
            let ulp = abs(truth) < 1e-3 ? Float(1).ulp : max(Float(truth).ulp, Float.leastNormalMagnitude)
            let error = Float(abs(Double(ours) - truth)) / ulp
            if error > worst { worst = error; worstAt = x }
        }
        #expect(worst <= (["tan", "atan2", "pow"].contains(name) ? 3 : 2), "\(name): \(worst) ulp at \(worstAt)")
    }

    @Test func theFloatFunctionsSpecialValuesAreExact() {
        #expect(FloatMath.sin(Float(0)) == 0 && FloatMath.cos(Float(0)) == 1 && FloatMath.exp(Float(0)) == 1)
        #expect(FloatMath.log(Float(1)) == 0 && FloatMath.log(Float(0)) == -.infinity && FloatMath.log(Float(-1)).isNaN)
        #expect(FloatMath.exp(Float(100)) == .infinity && FloatMath.exp(Float(-110)) == 0)
        #expect(FloatMath.pow(Float(2), 10) == 1024 && FloatMath.pow(Float(-2), 3) == -8 && FloatMath.pow(Float(-2), 0.5).isNaN)
        #expect(FloatMath.atan2(Float(0), -1) == Float.pi && FloatMath.atan2(Float(1), 0) == Float.pi / 2)
        #expect(FloatMath.sin(Float.nan).isNaN && FloatMath.cos(Float.infinity).isNaN)
    }

    /// The Float functions' bits over fixed arguments, recorded once, as for the Double ones.
    @Test func theFloatBitsAreTheSameOnEveryMachine() {
        var digest = SHA256()
        func add(_ value: Float) { withUnsafeBytes(of: value.bitPattern.littleEndian) { digest.update($0) } }
        for x in Self.arguments(20_000, -20, 20).map({ Float($0) }) {
            let (s, c) = FloatMath.sinAndCos(x)
            #expect(s.bitPattern == FloatMath.sin(x).bitPattern && c.bitPattern == FloatMath.cos(x).bitPattern, "\(x)")
            add(s); add(c); add(FloatMath.tan(x)); add(FloatMath.exp(x)); add(FloatMath.log(abs(x)))
            add(FloatMath.pow(abs(x), x / 7)); add(FloatMath.atan2(x, x * x - 3))
        }
        #expect(digest.hexDigest() == "86607676c86edfe32b8fda73ecba80c40be1f8f87c4e79547919ad6501345161")
    }

    /// sinAndCos is sin and cos to the bit.
    @Test func sinAndCosIsSinAndCos() {
        for x in Self.arguments(20_000, -20, 20) + Self.arguments(2_000, -1e7, 1e7) + [0, -0.0, 1e300, -.infinity, .nan] {
            let (s, c) = PortableMath.sinAndCos(x)
            #expect(s.bitPattern == PortableMath.sin(x).bitPattern && c.bitPattern == PortableMath.cos(x).bitPattern, "\(x)")
        }
    }
}
