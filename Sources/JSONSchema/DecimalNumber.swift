/// A JSON number held exactly: `significand × 10^exponent`, for comparisons and
/// `multipleOf` that floating point gets wrong (`1e308`, 20-digit integers, `0.1`).
public struct DecimalNumber: Sendable, Comparable {
    /// Decimal digits without leading or trailing zeros; empty for zero.
    let digits: [UInt8]
    let exponent: Int
    public let isNegative: Bool

    public var isZero: Bool { digits.isEmpty }
    public var isInteger: Bool { isZero || exponent >= 0 }

    /// Parses JSON number syntax (`-12.5e3`); nil for anything else.
    public init?(_ text: String) {
        var bytes = Substring(text).utf8[...]
        var negative = false
        if bytes.first == UInt8(ascii: "-") { negative = true; bytes = bytes.dropFirst() }
        var digits: [UInt8] = []
        var exponent = 0
        var sawDigit = false
        while let b = bytes.first, b >= 48, b <= 57 { digits.append(b - 48); sawDigit = true; bytes = bytes.dropFirst() }
        if bytes.first == UInt8(ascii: ".") {
            bytes = bytes.dropFirst()
            var sawFraction = false
            while let b = bytes.first, b >= 48, b <= 57 { digits.append(b - 48); exponent -= 1; sawFraction = true; bytes = bytes.dropFirst() }
            guard sawFraction else { return nil }
        }
        guard sawDigit else { return nil }
        if let e = bytes.first, e == UInt8(ascii: "e") || e == UInt8(ascii: "E") {
            bytes = bytes.dropFirst()
            var exponentNegative = false
            if let sign = bytes.first, sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") {
                exponentNegative = sign == UInt8(ascii: "-")
                bytes = bytes.dropFirst()
            }
            var value = 0
            var sawExponentDigit = false
            while let b = bytes.first, b >= 48, b <= 57 {
                value = min(value * 10 + Int(b - 48), 1 << 40)  // saturate: far beyond any real number
                sawExponentDigit = true
                bytes = bytes.dropFirst()
            }
            guard sawExponentDigit else { return nil }
            exponent += exponentNegative ? -value : value
        }
        guard bytes.isEmpty else { return nil }
        let leading = digits.firstIndex { $0 != 0 } ?? digits.count
        digits.removeFirst(leading)
        while digits.last == 0 { digits.removeLast(); exponent += 1 }
        self.digits = digits
        self.exponent = digits.isEmpty ? 0 : exponent
        self.isNegative = negative && !digits.isEmpty
    }

    public static func < (a: DecimalNumber, b: DecimalNumber) -> Bool {
        if a.isNegative != b.isNegative { return a.isNegative }
        let magnitudeLess = compareMagnitude(a, b) < 0
        let magnitudeGreater = compareMagnitude(a, b) > 0
        return a.isNegative ? magnitudeGreater : magnitudeLess
    }

    public static func == (a: DecimalNumber, b: DecimalNumber) -> Bool {
        a.isNegative == b.isNegative && a.digits == b.digits && a.exponent == b.exponent
    }

    /// -1, 0 or 1 comparing absolute values.
    private static func compareMagnitude(_ a: DecimalNumber, _ b: DecimalNumber) -> Int {
        if a.isZero || b.isZero { return a.isZero ? (b.isZero ? 0 : -1) : 1 }
        let aMagnitude = a.exponent + a.digits.count, bMagnitude = b.exponent + b.digits.count
        if aMagnitude != bMagnitude { return aMagnitude < bMagnitude ? -1 : 1 }
        for i in 0..<max(a.digits.count, b.digits.count) {
            let x = i < a.digits.count ? a.digits[i] : 0
            let y = i < b.digits.count ? b.digits[i] : 0
            if x != y { return x < y ? -1 : 1 }
        }
        return 0
    }

    /// Whether `self / divisor` is an integer, computed exactly. `divisor` must be positive.
    public func isMultiple(of divisor: DecimalNumber) -> Bool {
        if isZero { return true }
        // self = A·10^p, divisor = M·10^q; with e = min(p, q): A·10^(p−e) mod M·10^(q−e) == 0.
        let e = min(exponent, divisor.exponent)
        let shift = exponent - e
        let modulusDigits = divisor.digits + [UInt8](repeating: 0, count: divisor.exponent - e)
        if modulusDigits.count <= 18 {
            let modulus = modulusDigits.reduce(UInt64(0)) { $0 * 10 + UInt64($1) }
            let a = digits.reduce(UInt64(0)) { (Self.mulmod($0, 10, modulus) + UInt64($1)) % modulus }
            return Self.mulmod(a, Self.powmod(10, shift, modulus), modulus) == 0
        }
        // A modulus beyond 64 bits: long division on digits (the dividend has at most
        // the modulus' length plus `shift` digits; a larger shift than a few thousand digits
        // only happens with absurd inputs, for which the remainder is computed all the same).
        var remainder: [UInt8] = []
        for digit in digits + [UInt8](repeating: 0, count: min(shift, 100_000)) {
            remainder.append(digit)
            Self.trimLeadingZeros(&remainder)
            while Self.compareDigits(remainder, modulusDigits) >= 0 { Self.subtract(&remainder, modulusDigits) }
        }
        return remainder.isEmpty
    }

    private static func mulmod(_ a: UInt64, _ b: UInt64, _ m: UInt64) -> UInt64 {
        let product = a.multipliedFullWidth(by: b)
        return m.dividingFullWidth((product.high, product.low)).remainder
    }

    private static func powmod(_ base: UInt64, _ exponent: Int, _ m: UInt64) -> UInt64 {
        var result: UInt64 = 1 % m, b = base % m, e = exponent
        while e > 0 {
            if e & 1 == 1 { result = mulmod(result, b, m) }
            b = mulmod(b, b, m)
            e >>= 1
        }
        return result
    }

    private static func trimLeadingZeros(_ digits: inout [UInt8]) {
        let leading = digits.firstIndex { $0 != 0 } ?? digits.count
        digits.removeFirst(leading)
    }

    private static func compareDigits(_ a: [UInt8], _ b: [UInt8]) -> Int {
        if a.count != b.count { return a.count < b.count ? -1 : 1 }
        for (x, y) in zip(a, b) where x != y { return x < y ? -1 : 1 }
        return 0
    }

    /// a -= b, for a >= b.
    private static func subtract(_ a: inout [UInt8], _ b: [UInt8]) {
        var borrow = 0
        for i in 0..<a.count {
            let j = b.count - 1 - i
            var d = Int(a[a.count - 1 - i]) - borrow - (j >= 0 ? Int(b[j]) : 0)
            borrow = d < 0 ? 1 : 0
            if d < 0 { d += 10 }
            a[a.count - 1 - i] = UInt8(d)
        }
        trimLeadingZeros(&a)
    }
}
