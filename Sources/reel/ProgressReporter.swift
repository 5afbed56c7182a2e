import Foundation
import ReelApplication
import Synchronization

/// Shows a render's progress (`RenderProgress`) in a `ProgressStyle`. Updates may come from the
/// render's worker threads.
final class ProgressReporter: Sendable {
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
    init(style: ProgressStyle, totalFrames: Int64, segments: Int? = nil, isTerminal: Bool,
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
    func update(framesDone: Int64) {
        let t = now()
        lastShown.withLock { lastShown in
            let progress = RenderProgress(framesDone: framesDone, totalFrames: total, elapsed: t - start, segments: segments)
            switch style {
            case .none: return
            case .auto:
                guard isTerminal, t - lastShown >= 0.1 || framesDone == total else { return }
                write("\r\u{1B}[K" + progress.line)
            case .json:
                guard lastShown < 0 || t - lastShown >= 1 || framesDone == total else { return }
                write(progress.json + "\n")
            }
            lastShown = t
        }
    }

    /// Ends the terminal line.
    func finish() {
        if style == .auto && isTerminal && lastShown.withLock({ $0 }) >= 0 { write("\n") }
    }
}
