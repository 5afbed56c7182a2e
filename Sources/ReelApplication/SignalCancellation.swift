import Dispatch
import Foundation
import Synchronization

/// Turns SIGINT (Ctrl-C) and SIGTERM into a call of `handler` on a background queue of its
/// own, for as long as the returned object lives. Several may live at once (a fetch's inside
/// the preview's): each gets the signal. While none lives, a signal does what it does by
/// default: it ends the process.
public final class SignalCancellation: Sendable {
    private let registration: UInt64

    public init(handler: @escaping @Sendable () -> Void) {
        let queue = DispatchQueue(label: "reel.signals")
        registration = ProcessSignals.shared.add { queue.async(execute: handler) }
    }

    deinit { ProcessSignals.shared.remove(registration) }
}

/// The process's one dispatch source for each of SIGINT and SIGTERM, made with the first
/// `SignalCancellation` and kept for good, handing each signal to the cancellations alive then.
///
/// Kept, not made and released with each cancellation, because libdispatch on Linux sets the
/// signal's disposition to its own handler once, when its first source for the signal is
/// registered, and never again: setting the disposition afterwards (`SIG_IGN` for a second
/// source, or restoring the old one when a source goes) loses every later signal, or lets it
/// kill the process with nothing cleaned up. (So a preview's Ctrl-C was lost once a fetch had
/// started, and a render's after the fetch of its remote media.)
private final class ProcessSignals: Sendable {
    static let shared = ProcessSignals()

    private let handlers = Mutex<(next: UInt64, live: [UInt64: @Sendable () -> Void])>((0, [:]))
    /// The signals the process was started with ignored (a background job of a script): with
    /// no cancellation alive they stay ignored.
    private let ignoredAtStart: Set<Int32>
    /// Kept alive with the process; only their event handlers run.
    private nonisolated(unsafe) let sources: [any DispatchSourceSignal]

    private static let signals = [SIGINT, SIGTERM]

    private init() {
        let queue = DispatchQueue(label: "reel.process-signals")
        var ignored = Set<Int32>()
        sources = Self.signals.map { sig in
            // Ignored until libdispatch's handler is in place (as the source is registered);
            // `signal` gives back the disposition found, a C function pointer or SIG_IGN's 1.
            let found = signal(sig, SIG_IGN)
            if unsafeBitCast(found, to: Int.self) == unsafeBitCast(SIG_IGN, to: Int.self) { ignored.insert(sig) }
            return DispatchSource.makeSignalSource(signal: sig, queue: queue)
        }
        ignoredAtStart = ignored
        for (source, sig) in zip(sources, Self.signals) {
            source.setEventHandler { [unowned self] in deliver(sig) }
            source.resume()
        }
    }

    func add(_ handler: @escaping @Sendable () -> Void) -> UInt64 {
        handlers.withLock {
            $0.next += 1
            $0.live[$0.next] = handler
            return $0.next
        }
    }

    func remove(_ registration: UInt64) {
        _ = handlers.withLock { $0.live.removeValue(forKey: registration) }
    }

    /// To every live cancellation; with none, what the signal did when the process started:
    /// by default it ends the process by the signal, as without Reel's handling.
    private func deliver(_ sig: Int32) {
        let live = handlers.withLock { Array($0.live.values) }
        guard live.isEmpty else { return live.forEach { $0() } }
        guard !ignoredAtStart.contains(sig) else { return }
        signal(sig, SIG_DFL)
        var only = sigset_t()
        sigemptyset(&only)
        sigaddset(&only, sig)
        pthread_sigmask(SIG_UNBLOCK, &only, nil)
        raise(sig)
    }
}

/// For a child whose parent holds its standard input open (`ChildProcess`'s `keepsInputOpen`):
/// once that input ends (the parent died, or closed it), the process sends itself SIGTERM, so
/// it stops as SIGTERM stops it (a render at its next frame, removing its partial output).
public enum StopWithInput {
    public static func start() {
        // A child inherits the dispositions its parent ignores (a service ignores SIGINT and
        // SIGTERM, to stop in its own time): this one is meant to stop on them.
        signal(SIGINT, SIG_DFL)
        signal(SIGTERM, SIG_DFL)
        let watcher = Thread {
            var byte: UInt8 = 0
            while case let n = read(STDIN_FILENO, &byte, 1), n > 0 || (n < 0 && errno == EINTR) {}
            kill(getpid(), SIGTERM)
        }
        watcher.name = "reel-stop-with-input"
        watcher.start()
    }
}
