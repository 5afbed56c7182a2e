/// Resolves plain (unquoted) YAML scalars with the YAML 1.2 core schema: only
/// `null`/`~`/empty, `true`/`false`, integers (decimal, `0o`, `0x`) and floats are typed;
/// everything else (`yes`, `on`, `01:02`, `1_000`) stays a string.
enum CoreSchemaScalar {
    enum Resolved: Equatable {
        case null
        case bool(Bool)
        /// In JSON number syntax: `0x1F` becomes `31`, `+.5` becomes `0.5`.
        case number(String)
        case string(String)
        /// `.inf` / `.nan`: valid YAML, but JSON (and so the schema) has no such numbers.
        case nonFinite(String)
    }

    static func resolve(_ text: String) -> Resolved {
        // Fast path: only these first characters can start a non-string.
        guard let first = text.utf8.first else { return .null }
        switch first {
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "~"), UInt8(ascii: "."), UInt8(ascii: "+"), UInt8(ascii: "-"),
             UInt8(ascii: "n"), UInt8(ascii: "N"), UInt8(ascii: "t"), UInt8(ascii: "T"), UInt8(ascii: "f"), UInt8(ascii: "F"):
            break
        default:
            return .string(text)
        }
        switch text {
        case "", "~", "null", "Null", "NULL": return .null
        case "true", "True", "TRUE": return .bool(true)
        case "false", "False", "FALSE": return .bool(false)
        case ".inf", ".Inf", ".INF", "+.inf", "+.Inf", "+.INF", "-.inf", "-.Inf", "-.INF",
             ".nan", ".NaN", ".NAN":
            return .nonFinite(text)
        default: break
        }
        if let number = decimalNumber(text) ?? radixInteger(text, prefix: "0x", radix: 16) ?? radixInteger(text, prefix: "0o", radix: 8) {
            return .number(number)
        }
        return .string(text)
    }

    /// `[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?`, rewritten in JSON number syntax.
    private static func decimalNumber(_ text: String) -> String? {
        var rest = Substring(text)
        var sign = ""
        if let first = rest.first, first == "-" || first == "+" {
            sign = first == "-" ? "-" : ""
            rest = rest.dropFirst()
        }
        let integer = rest.prefix { $0.isASCII && $0.isNumber }
        rest = rest.dropFirst(integer.count)
        var fraction: Substring = ""
        var hasPoint = false
        if rest.first == "." {
            hasPoint = true
            rest = rest.dropFirst()
            fraction = rest.prefix { $0.isASCII && $0.isNumber }
            rest = rest.dropFirst(fraction.count)
        }
        guard !integer.isEmpty || !fraction.isEmpty else { return nil }
        if integer.isEmpty && !hasPoint { return nil }
        var exponent = ""
        if let e = rest.first, e == "e" || e == "E" {
            var digits = rest.dropFirst()
            var exponentSign = ""
            if let s = digits.first, s == "-" || s == "+" { exponentSign = String(s); digits = digits.dropFirst() }
            guard !digits.isEmpty, digits.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
            exponent = "e" + exponentSign + digits
            rest = ""
        }
        guard rest.isEmpty else { return nil }
        let trimmedInteger = integer.drop { $0 == "0" }
        let integerPart = trimmedInteger.isEmpty ? "0" : String(trimmedInteger)
        let fractionPart = fraction.isEmpty ? "" : "." + fraction
        return sign + integerPart + fractionPart + exponent
    }

    /// `0x1F` / `0o17` as decimal text (any length).
    private static func radixInteger(_ text: String, prefix: String, radix: UInt8) -> String? {
        guard text.hasPrefix(prefix) else { return nil }
        let body = text.dropFirst(prefix.count)
        guard !body.isEmpty else { return nil }
        var decimal: [UInt8] = [0]  // little-endian decimal digits
        for character in body {
            guard let value = character.hexDigitValue, value < radix else { return nil }
            var carry = Int(value)
            for i in decimal.indices {
                let product = Int(decimal[i]) * Int(radix) + carry
                decimal[i] = UInt8(product % 10)
                carry = product / 10
            }
            while carry > 0 { decimal.append(UInt8(carry % 10)); carry /= 10 }
        }
        while decimal.count > 1 && decimal.last == 0 { decimal.removeLast() }
        return String(decimal.reversed().map { Character(String($0)) })
    }
}
