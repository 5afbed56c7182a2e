import Foundation
import RemoteMedia
import Synchronization

/// The fetch's progress (`Workspace`'s fetch events) on standard error: a live line on a
/// terminal (at most ten updates a second), and one line when a fetch starts, retries and ends.
final class FetchProgressLine: Sendable {
    private let isTerminal = isatty(STDERR_FILENO) != 0
    /// When the live line was last drawn (fetches of several files may report at once).
    private let lastShown = Mutex<TimeInterval>(-1)

    func show(_ event: FetchEvent) {
        guard case .progress = event else { return line(event.line) }
        let now = ProcessInfo.processInfo.systemUptime
        let due = lastShown.withLock { last in
            guard isTerminal, now - last >= 0.1 else { return false }
            last = now
            return true
        }
        if due { write("\r\u{1B}[2K" + event.line) }
    }

    private func line(_ text: String) { write((isTerminal ? "\r\u{1B}[2K" : "") + text + "\n") }

    private func write(_ text: String) { FileHandle.standardError.write(Data(text.utf8)) }
}
