import MediaTime

/// A part of the timeline to render, `START..END` in any time notation (`5s..12s`,
/// `00:05..00:12`, `150f..360f`); either side may be left out (`..12s`, `5s..`).
public enum RenderRange {
    public struct ParseError: Error, CustomStringConvertible, Equatable {
        public let description: String
    }

    /// The range inside a timeline of `duration` at `fps` (for frame counts).
    public static func parse(_ text: String, duration: MediaTime, fps: Rational) throws(ParseError) -> TimeRange {
        guard let dots = text.range(of: "..") else {
            throw ParseError(description: "the range '\(text)' needs the form START..END, for example 5s..12s")
        }
        let startText = String(text[..<dots.lowerBound]), endText = String(text[dots.upperBound...])
        func time(_ s: String, default value: MediaTime) throws(ParseError) -> MediaTime {
            guard !s.isEmpty else { return value }
            do {
                return try TimeNotation.parse(s, fps: fps)
            } catch {
                throw ParseError(description: "the range '\(text)': \(error.message)")
            }
        }
        let start = try time(startText, default: .zero), end = try time(endText, default: duration)
        guard !start.isNegative, start < end else {
            throw ParseError(description: "the range '\(text)': the start must be at or after 0 and before the end")
        }
        guard end <= duration else {
            throw ParseError(description: "the range '\(text)' ends after the timeline, which is \(TimeNotation.clock(duration)) long")
        }
        return TimeRange(start: start, end: end)
    }
}
