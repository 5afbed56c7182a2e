import JSONSchema
import MediaTime
import ProjectFile

/// A node of an OpenTimelineIO document with its JSON path, and the readers of OTIO's value
/// types (`RationalTime.1`, `TimeRange.1`) that every schema uses. Numbers are read from
/// their text, exactly: `"rate": 23.976023976023978` is 24000/1001, never a float.
struct OTIONode {
    let node: Node
    let path: String
    let file: String

    var place: Place { .path(path.isEmpty ? "(root)" : path, in: file) }

    subscript(key: String) -> OTIONode? {
        node[key].map { OTIONode(node: $0, path: DocumentPath.appending(key: key, to: path), file: file) }
    }

    var string: String? { node.stringValue }

    var elements: [OTIONode] {
        guard case .array(let items) = node.value else { return [] }
        return items.enumerated().map { OTIONode(node: $1, path: DocumentPath.appending(index: $0, to: path), file: file) }
    }

    func fail(_ message: String, hint: String? = nil) -> InterchangeError { InterchangeError(message, at: place, hint: hint) }

    /// `Clip.2` as ("Clip", 2); nil without `OTIO_SCHEMA`.
    func schema() throws(InterchangeError) -> (name: String, version: Int)? {
        guard let text = self["OTIO_SCHEMA"]?.string else { return nil }
        guard let dot = text.lastIndex(of: "."), let version = Int(text[text.index(after: dot)...]) else {
            throw fail("'\(text)' is not a schema name: OTIO_SCHEMA is Name.version, like Clip.2")
        }
        return (String(text[..<dot]), version)
    }

    /// An exact number from its JSON text (`24`, `86400.0`, `1.5e3`).
    func number() throws(InterchangeError) -> Rational {
        guard case .number(let text) = node.value else { throw fail("expected a number") }
        guard let value = Self.exactNumber(text) else { throw fail("'\(text)' is not a usable number here") }
        return value
    }

    /// Past 15 decimals a number is a double's approximation of a fraction (1.9833333333333334
    /// for 119/60): its further digits are dropped, and `nearestSimple` finds the fraction.
    static func exactNumber(_ text: String) -> Rational? {
        let lower = text.lowercased()
        func decimal(_ s: Substring) -> Rational? {
            guard let dot = s.firstIndex(of: ".") else { return Rational(exactly: String(s)) }
            return Rational(exactly: String(s[...dot]) + String(s[s.index(after: dot)...].prefix(15)))
        }
        guard let e = lower.firstIndex(of: "e") else { return decimal(lower[...]) }
        guard let mantissa = decimal(lower[..<e]), let exponent = Int(lower[lower.index(after: e)...]), abs(exponent) <= 18 else { return nil }
        var scale: Int64 = 1
        for _ in 0..<abs(exponent) { scale *= 10 }
        return exponent >= 0 ? mantissa.multiplied(by: Rational(scale)) : mantissa.divided(by: Rational(scale))
    }

    /// A frame rate: 23.976023976023978 (a double OTIO wrote for 24000/1001) is the NTSC rate
    /// it stands for; other rates are read exactly.
    func rate() throws(InterchangeError) -> Rational {
        let r = try number()
        guard r > .zero, r <= Rational(100_000) else { throw fail("rate \(r) is not a frame rate") }
        return Self.nearestSimple(r) ?? r
    }

    /// The fraction with a denominator of at most 1001 within 1e-9 (relative) of `value`, if
    /// any: the float OpenTimelineIO wrote for 24000/1001 or for a speed of 119/60. Found among
    /// the continued-fraction convergents of `value`.
    static func nearestSimple(_ value: Rational) -> Rational? {
        if value.denominator <= 1001 { return value }
        var (h0, h1, k0, k1): (Int64, Int64, Int64, Int64) = (0, 1, 1, 0)
        var rest = value
        while true {
            let a = rest.floor
            let (h2, k2) = (a * h1 + h0, a * k1 + k0)
            guard k2 <= 1001 else { return nil }
            let candidate = Rational(h2, k2)
            if value.isZero || ((candidate - value) / value).magnitude < Rational(1, 1_000_000_000) { return candidate }
            let fraction = rest - Rational(a)
            guard !fraction.isZero else { return nil }
            rest = fraction.reciprocal
            (h0, h1, k0, k1) = (h1, h2, k1, k2)
        }
    }

    /// A `RationalTime.1`: value / rate seconds.
    func time() throws(InterchangeError) -> MediaTime {
        try requireSchema("RationalTime", 1)
        guard let value = self["value"], let rate = self["rate"] else { throw fail("a RationalTime needs 'value' and 'rate'") }
        let v = try value.number(), r = try rate.rate()
        guard v.magnitude <= Rational(Int64(1) << 40), let t = v.divided(by: r) else { throw value.fail("time \(v) at rate \(r) is out of range") }
        return MediaTime(t)
    }

    /// A `TimeRange.1`.
    func range() throws(InterchangeError) -> TimeRange {
        try requireSchema("TimeRange", 1)
        guard let start = self["start_time"], let duration = self["duration"] else { throw fail("a TimeRange needs 'start_time' and 'duration'") }
        let range = TimeRange(start: try start.time(), duration: try duration.time())
        guard !range.duration.isNegative else { throw duration.fail("a negative duration") }
        return range
    }

    /// The rate of a `RationalTime.1`, for choosing the timeline's rate.
    var rateOfTime: Rational? { try? self["rate"]?.rate() }

    func requireSchema(_ name: String, _ version: Int) throws(InterchangeError) {
        guard let schema = try schema() else { throw fail("expected a \(name).\(version) object") }
        guard schema.name == name else { throw fail("expected a \(name).\(version), found \(schema.name).\(schema.version)") }
        guard schema.version == version else { throw Self.unknownVersion(schema, known: [version], at: self) }
    }

    static func unknownVersion(_ schema: (name: String, version: Int), known: ClosedRange<Int>, at node: OTIONode) -> InterchangeError {
        node.fail("unknown schema version \(schema.name).\(schema.version); Reel reads \(schema.name).\(known.lowerBound)\(known.count > 1 ? "–\(known.upperBound)" : "")",
                  hint: "save the timeline with an OpenTimelineIO release that writes these versions (or downgrade it with otioconvert)")
    }

    static func unknownVersion(_ schema: (name: String, version: Int), known: [Int], at node: OTIONode) -> InterchangeError {
        unknownVersion(schema, known: known.min()!...known.max()!, at: node)
    }
}
