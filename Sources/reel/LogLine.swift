import Foundation

/// A line of a server's log (the preview's, the service's) on the terminal: the local time,
/// then the text.
enum LogLine {
    /// `12:03:04 text`.
    static func stamped(_ text: String, at date: Date = Date()) -> String {
        let now = Int(date.timeIntervalSince1970) + TimeZone.current.secondsFromGMT(for: date)
        return String(format: "%02d:%02d:%02d ", now / 3600 % 24, now / 60 % 60, now % 60) + text
    }

    /// Writes `text`, stamped, to standard error.
    static func write(_ text: String) {
        FileHandle.standardError.write(Data((stamped(text) + "\n").utf8))
    }
}
