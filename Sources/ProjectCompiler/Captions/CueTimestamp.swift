import MediaTime

/// Cue timestamps read exactly (milliseconds as a fraction of a second, no rounding):
/// WebVTT's `[hh:]mm:ss.ttt` and SubRip's `hh:mm:ss,ttt`.
enum CueTimestamp {
    enum Style {
        /// `mm:ss.ttt` or `hh:mm:ss.ttt` (hours: two digits or more).
        case webVTT
        /// `hh:mm:ss,ttt` (a full stop instead of the comma is accepted: many files have it).
        case subRip
    }

    static func parse(_ text: Substring, _ style: Style) -> MediaTime? {
        let separator: Set<Character> = style == .webVTT ? ["."] : [",", "."]
        guard let mark = text.lastIndex(where: { separator.contains($0) }) else { return nil }
        let clock = text[..<mark].split(separator: ":", omittingEmptySubsequences: false)
        let millis = text[text.index(after: mark)...]
        guard millis.count == 3, let ms = digits(millis) else { return nil }
        let hours: Int64, minutes: Int64, seconds: Int64
        switch (style, clock.count) {
        case (.webVTT, 2), (.webVTT, 3), (.subRip, 3):
            let h = clock.count == 3 ? clock[0] : nil
            let m = clock[clock.count - 2], s = clock[clock.count - 1]
            guard m.count == 2, s.count == 2, let mm = digits(m), let ss = digits(s), mm < 60, ss < 60 else { return nil }
            if let h {
                guard h.count >= 2, h.count <= 4, let hh = digits(h) else { return nil }
                hours = hh
            } else {
                hours = 0
            }
            minutes = mm
            seconds = ss
        default:
            return nil
        }
        return MediaTime(((hours * 60 + minutes) * 60 + seconds) * 1000 + ms, 1000)
    }

    static let help: [Style: String] = [.webVTT: "00:00:01.500", .subRip: "00:00:01,500"]

    private static func digits(_ text: Substring) -> Int64? {
        guard !text.isEmpty, text.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
        return Int64(text)
    }
}
