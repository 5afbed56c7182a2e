/// Parsing and printing of the time notations a project file may use.
///
/// Accepted: `1.5` (seconds), `1.5s`, `250ms`, `2.5min` or `2.5m`, `1h`, `12f` (frames at the output rate),
/// `01:02.5` (minutes:seconds), `00:01:02.500` (hours:minutes:seconds) and SMPTE
/// `00:01:02:15` (hours:minutes:seconds:frames, at the output rate). A leading `-`
/// makes a time negative (keyframes count from an item's end that way).
public enum TimeNotation {
    public struct ParseError: Error, Equatable, CustomStringConvertible {
        public let message: String
        public var description: String { message }
    }

    public static let help = #"a time such as 1.5, "1.5s", "250ms", "2.5min", "1h", "12f", "01:02.5", "00:01:02.500" or "00:01:02:15""#

    /// Unit suffixes and their length in seconds, longest first where one ends another.
    private static let units: [(String, Rational)] = [("ms", Rational(1, 1000)), ("min", Rational(60)), ("m", Rational(60)),
                                                     ("h", Rational(3600)), ("s", Rational(1))]

    /// Parses `text` into exact time; `fps` resolves frame counts (`12f`, SMPTE frames).
    public static func parse(_ text: String, fps: Rational) throws(ParseError) -> MediaTime {
        var s = text.trimmingSpaces
        var negative = false
        if s.first == "-" { negative = true; s = s.dropFirst() } else if s.first == "+" { s = s.dropFirst() }
        guard !s.isEmpty else { throw ParseError(message: "empty time; expected \(help)") }
        let t = try parseMagnitude(String(s), fps: fps, original: text)
        return negative ? -t : t
    }

    private static func parseMagnitude(_ s: String, fps: Rational, original: String) throws(ParseError) -> MediaTime {
        // Worded only when thrown: a project's every time passes through here.
        func bad() -> ParseError { ParseError(message: "'\(original)' is not a time; expected \(help)") }
        // Values too large for exact arithmetic (far beyond any timeline) are refused, not trapped on.
        func tooLarge() -> ParseError { ParseError(message: "'\(original)' is too large a time") }
        func seconds(_ whole: Int128, plus fraction: Rational) throws(ParseError) -> MediaTime {
            guard let w = Int64(exactly: whole), let t = Rational(w).adding(fraction) else { throw tooLarge() }
            return MediaTime(t)
        }
        guard let first = s.first, first.isASCIIDigit || first == "." else { throw bad() }
        if s.contains(":") {
            let fields = s.split(separator: ":", omittingEmptySubsequences: false).map(String.init)
            guard fields.allSatisfy({ !$0.isEmpty }) else { throw bad() }
            switch fields.count {
            case 2: // mm:ss.frac
                guard let m = Int64(fields[0]), let sec = Rational(decimal: fields[1]), m >= 0, !sec.isNegative, sec < Rational(60) else { throw bad() }
                return try seconds(Int128(m) * 60, plus: sec)
            case 3: // hh:mm:ss.frac
                guard let h = Int64(fields[0]), let m = Int64(fields[1]), let sec = Rational(decimal: fields[2]),
                      h >= 0, (0..<60).contains(m), !sec.isNegative, sec < Rational(60) else { throw bad() }
                return try seconds(Int128(h) * 3600 + Int128(m) * 60, plus: sec)
            case 4: // SMPTE hh:mm:ss:ff, non-drop-frame
                let n: Int64
                do throws(Timecode.ParseError) {
                    n = try Timecode(rate: fps, dropFrame: false).frames(s, shownAs: original)
                } catch { throw ParseError(message: error.message) }
                guard let t = Rational(n).divided(by: fps) else { throw tooLarge() }
                return MediaTime(t)
            default:
                throw bad()
            }
        }
        for (suffix, seconds) in Self.units where s.hasSuffix(suffix) {
            if let v = Rational(decimal: String(s.dropLast(suffix.count))) {
                guard let t = v.multiplied(by: seconds) else { throw tooLarge() }
                return MediaTime(t)
            }
        }
        if s.hasSuffix("f") {
            guard let n = Int64(s.dropLast()) else {
                throw ParseError(message: "'\(original)': a frame count must be a whole number, like \"12f\"")
            }
            guard let t = Rational(n).divided(by: fps) else { throw tooLarge() }
            return MediaTime(t)
        }
        if let v = Rational(decimal: s) { return MediaTime(v) }
        throw bad()
    }

    /// `HH:MM:SS.mmm` (milliseconds rounded), for listings; negative times get a `-`.
    public static func clock(_ t: MediaTime) -> String {
        let ms = (t.value.magnitude * Rational(1000)).rounded
        let h = ms / 3_600_000, m = (ms / 60_000) % 60, s = (ms / 1000) % 60, f = ms % 1000
        return (t.isNegative ? "-" : "") + pad(h, 2) + ":" + pad(m, 2) + ":" + pad(s, 2) + "." + pad(f, 3)
    }

    /// Seconds as a project file writes them, `22.047s`: milliseconds at most, rounded towards
    /// zero, so the value never exceeds `t` (safe to copy into a limit).
    public static func seconds(_ t: MediaTime) -> String {
        let ms = (t.value.magnitude * Rational(1000)).floor
        let whole = String(ms / 1000), fraction = ms % 1000
        var text = whole
        if fraction != 0 {
            text += "." + pad(fraction, 3)
            while text.hasSuffix("0") { text.removeLast() }
        }
        return (t.isNegative ? "-" : "") + text + "s"
    }

    private static func pad(_ v: Int64, _ width: Int) -> String {
        let s = String(v)
        return s.count >= width ? s : String(repeating: "0", count: width - s.count) + s
    }
}
