import ReelApplication
import ArgumentParser
import Foundation
import NetworkPolicy
import RemoteMedia
import Synchronization

/// `--offline`, and the cache of `http(s)://` media every command that reads a project uses.
struct MediaFetching: ParsableArguments {
    @Flag(help: "Fetch no remote media: use only the media cache (REEL_OFFLINE=1 does the same).")
    var offline = false

    /// A workspace whose media cache has the environment's settings and reports its fetches
    /// on standard error; Ctrl-C or SIGTERM during a fetch cancels it (exit 130). Throws
    /// `UsageError` for a malformed setting.
    func workspace(addressPolicy: AddressPolicy? = nil) throws -> Workspace {
        let line = FetchProgressLine()
        do {
            return try Workspace(environment: ProcessInfo.processInfo.environment, offline: offline, offlineSwitch: "--offline", addressPolicy: addressPolicy,
                                 report: { line.show($0) }, interruptions: { SignalCancellation(handler: $0) })
        } catch {
            throw UsageError(error.description)
        }
    }
}

/// The fetch's progress on standard error: a live line on a terminal (at most ten updates a
/// second), and one line when a fetch starts, retries and ends.
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
