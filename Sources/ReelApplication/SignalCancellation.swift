import Dispatch
import Foundation

/// Turns SIGINT (Ctrl-C) and SIGTERM into a call of `handler` on a background queue, for as
/// long as the returned object lives; the previous dispositions come back when it is released.
/// Several may live at once (a fetch's inside the preview's): each gets the signal, and
/// released in the reverse order they leave the dispositions as they found them.
public final class SignalCancellation {
    private let sources: [DispatchSourceSignal]
    private let previous: [(Int32, sig_t?)]

    public init(handler: @escaping @Sendable () -> Void) {
        let queue = DispatchQueue(label: "reel.signals")
        var previous: [(Int32, sig_t?)] = []
        sources = [SIGINT, SIGTERM].map { sig in
            previous.append((sig, signal(sig, SIG_IGN)))
            let source = DispatchSource.makeSignalSource(signal: sig, queue: queue)
            source.setEventHandler(handler: handler)
            source.resume()
            return source
        }
        self.previous = previous
    }

    deinit {
        for source in sources { source.cancel() }
        for (sig, disposition) in previous { signal(sig, disposition) }
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
