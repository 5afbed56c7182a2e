import Foundation
import Synchronization

/// How a render shows its progress.
public enum ProgressStyle: String, Sendable, CaseIterable {
    /// A live line on the terminal (standard error), nothing when it is not a terminal.
    case auto
    /// One JSON object a second on standard output, for pipelines.
    case json
    case none
}

/// Formats a render's progress lines; the clock only ever feeds what is shown, never the
/// output file. Updates may come from the render's worker threads.
public final class ProgressReporter: Sendable {
    private let style: ProgressStyle
    private let total: Int64
    /// The segments of the render, for its JSON lines (nil: not told).
    private let segments: Int?
    private let write: @Sendable (String) -> Void
    private let now: @Sendable () -> TimeInterval
    private let start: TimeInterval
    /// When a line was last written (-1: never).
    private let lastShown = Mutex<TimeInterval>(-1)
    private let isTerminal: Bool

    /// `write` defaults to standard output for `.json`, standard error otherwise.
    public init(style: ProgressStyle, totalFrames: Int64, segments: Int? = nil, isTerminal: Bool,
                now: @escaping @Sendable () -> TimeInterval = { ProcessInfo.processInfo.systemUptime },
                write: (@Sendable (String) -> Void)? = nil) {
        self.style = style
        total = max(totalFrames, 1)
        self.segments = segments
        self.isTerminal = isTerminal
        self.now = now
        start = now()
        self.write = write ?? { text in
            let handle = style == .json ? FileHandle.standardOutput : FileHandle.standardError
            handle.write(Data(text.utf8))
        }
    }

    /// Called after each frame; shows at most ten terminal updates (one JSON line) a second.
    public func update(framesDone: Int64) {
        let t = now()
        lastShown.withLock { lastShown in
            switch style {
            case .none: return
            case .auto:
                guard isTerminal, t - lastShown >= 0.1 || framesDone == total else { return }
                write("\r\u{1B}[K" + line(framesDone, elapsed: t - start))
            case .json:
                guard lastShown < 0 || t - lastShown >= 1 || framesDone == total else { return }
                write(json(framesDone, elapsed: t - start) + "\n")
            }
            lastShown = t
        }
    }

    /// Ends the terminal line.
    public func finish() {
        if style == .auto && isTerminal && lastShown.withLock({ $0 }) >= 0 { write("\n") }
    }

    public func line(_ done: Int64, elapsed: TimeInterval) -> String {
        let fps = elapsed > 0 ? Double(done) / elapsed : 0
        let eta = fps > 0 ? Double(total - done) / fps : 0
        return "\(format(100 * Double(done) / Double(total), 1))%  frame \(done)/\(total)  \(format(fps, 1)) fps  "
            + "elapsed \(clock(elapsed))  ETA \(clock(eta))"
    }

    public func json(_ done: Int64, elapsed: TimeInterval) -> String {
        let fps = elapsed > 0 ? Double(done) / elapsed : 0
        let eta = fps > 0 ? Double(total - done) / fps : 0
        return #"{"frame":\#(done),"frames":\#(total),"percent":\#(format(100 * Double(done) / Double(total), 2)),"#
            + #""fps":\#(format(fps, 2)),"elapsed":\#(format(elapsed, 3)),"eta":\#(format(eta, 3))"#
            + (segments.map { #","segments":\#($0)"# } ?? "") + "}"
    }

    /// A non-negative number with `digits` decimals and a dot, whatever the locale.
    private func format(_ v: Double, _ digits: Int) -> String {
        var scale: Int64 = 1
        for _ in 0..<digits { scale *= 10 }
        let n = Int64((max(v, 0) * Double(scale)).rounded())
        let fraction = String(n % scale)
        return "\(n / scale).\(String(repeating: "0", count: digits - fraction.count))\(fraction)"
    }

    private func clock(_ seconds: TimeInterval) -> String {
        let s = Int(seconds.rounded())
        return s >= 3600 ? "\(s / 3600):\(pad((s / 60) % 60)):\(pad(s % 60))" : "\(s / 60):\(pad(s % 60))"
    }

    private func pad(_ v: Int) -> String { v < 10 ? "0\(v)" : "\(v)" }
}
