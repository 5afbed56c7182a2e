/// SMPTE timecode `HH:MM:SS:FF` as editing systems write it: frames counted at the nominal
/// integer rate (30 for 29.97), drop-frame or not, converted to and from exact frame counts.
///
/// Drop-frame (`HH:MM:SS;FF`, only at 29.97 and 59.94) skips frame numbers 0 and 1 (0–3 at
/// 59.94) at the start of every minute except every tenth, so that its labels stay within
/// 3.6 ms a day of the clock; the frames themselves are never dropped. A frame count n is at
/// exactly n / rate seconds.
public struct Timecode: Hashable, Sendable {
    /// Frames per second (`30000/1001`).
    public var rate: Rational
    public var dropFrame: Bool

    public init(rate: Rational, dropFrame: Bool) {
        self.rate = rate
        self.dropFrame = dropFrame
    }

    /// The integer rate the frame field counts at: 30 for 29.97, 24 for 23.976.
    public var nominalRate: Int64 { rate.ceiling }

    /// Frame numbers skipped each minute that is not a multiple of ten (2 at 29.97, 4 at 59.94).
    var droppedPerMinute: Int64 { dropFrame ? nominalRate / 15 : 0 }

    /// Drop-frame timecode exists only at the NTSC rates 30000/1001 and 60000/1001.
    public static func dropFrameIsDefined(at rate: Rational) -> Bool {
        rate == Rational(30000, 1001) || rate == Rational(60000, 1001)
    }

    public struct ParseError: Error, Equatable, CustomStringConvertible {
        public let message: String
        public var description: String { message }
    }

    /// The frame count of `text` (`01:00:04:05`, or with `;` before the frames for
    /// drop-frame); a `;` in a non-drop-frame timecode is accepted, as editors mix them.
    /// Hours may pass 99, as `string(frames:)` writes them; frames have two digits, or
    /// three above 100 fps.
    public func frames(_ text: some StringProtocol) throws(ParseError) -> Int64 {
        try frames(text, shownAs: String(text))
    }

    /// `frames(_:)`, quoting `shown` in its errors (a time notation quotes the value as written).
    func frames(_ text: some StringProtocol, shownAs shown: String) throws(ParseError) -> Int64 {
        let fields = text.split(omittingEmptySubsequences: false) { $0 == ":" || $0 == ";" || $0 == "." }
        let frameDigits = max(2, String(nominalRate - 1).count)
        guard fields.count == 4, fields.allSatisfy({ !$0.isEmpty && $0.allSatisfy(\.isASCIIDigit) }),
              fields[1].count <= 2, fields[2].count <= 2, fields[3].count <= frameDigits,
              let m = Int64(fields[1]), let s = Int64(fields[2]), let f = Int64(fields[3]) else {
            throw ParseError(message: "'\(shown)' is not a timecode; expected HH:MM:SS:FF")
        }
        let tooLarge = ParseError(message: "'\(shown)' is too large a time")
        guard let h = Int64(fields[0]) else { throw tooLarge }
        guard m < 60, s < 60 else { throw ParseError(message: "'\(shown)': minutes and seconds run 00...59") }
        guard f < nominalRate else {
            throw ParseError(message: "'\(shown)': frame \(f) does not exist at \(rate) fps (frames run 0...\(nominalRate - 1))")
        }
        if dropFrame && s == 0 && m % 10 != 0 && f < droppedPerMinute {
            throw ParseError(message: "'\(shown)' does not exist in drop-frame timecode (frames 00...\(droppedPerMinute - 1) of minute \(m) are skipped)")
        }
        let totalMinutes = Int128(h) * 60 + Int128(m)
        let labels = (totalMinutes * 60 + Int128(s)) * Int128(nominalRate) + Int128(f)
        guard let count = Int64(exactly: labels - Int128(droppedPerMinute) * (totalMinutes - totalMinutes / 10)) else { throw tooLarge }
        return count
    }

    /// The timecode of frame `count` (≥ 0), with `;` before the frames when drop-frame. Hours
    /// go on past 23 (a time, not a deck's clock).
    public func string(frames count: Int64) -> String {
        var n = count
        if dropFrame {
            let perTenMinutes = nominalRate * 600 - droppedPerMinute * 9
            let perMinute = nominalRate * 60 - droppedPerMinute
            let tens = n / perTenMinutes, rest = n % perTenMinutes
            n += droppedPerMinute * 9 * tens
            if rest >= droppedPerMinute { n += droppedPerMinute * ((rest - droppedPerMinute) / perMinute) }
        }
        let f = n % nominalRate, totalSeconds = n / nominalRate
        let h = totalSeconds / 3600, m = (totalSeconds / 60) % 60, s = totalSeconds % 60
        func two(_ v: Int64) -> String { v < 10 ? "0\(v)" : "\(v)" }
        return "\(two(h)):\(two(m)):\(two(s))\(dropFrame ? ";" : ":")\(two(f))"
    }

    /// The time of frame `count`: count / rate, exact.
    public func time(frames count: Int64) -> MediaTime { MediaTime(Rational(count) / rate) }

    /// The frame count at `time`, if it falls on a frame.
    public func frames(at time: MediaTime) -> Int64? {
        let n = time.value * rate
        return n.isInteger ? n.numerator : nil
    }
}
