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
