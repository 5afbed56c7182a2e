import Dispatch
import Foundation

/// Turns SIGINT (Ctrl-C) and SIGTERM into a call of `handler` on a background queue, for as
/// long as the returned object lives; the default actions come back when it is released.
final class SignalCancellation {
    private let sources: [DispatchSourceSignal]
    private static let signals = [SIGINT, SIGTERM]

    init(handler: @escaping @Sendable () -> Void) {
        let queue = DispatchQueue(label: "reel.signals")
        sources = Self.signals.map { sig in
            signal(sig, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: sig, queue: queue)
            source.setEventHandler(handler: handler)
            source.resume()
            return source
        }
    }

    deinit {
        for source in sources { source.cancel() }
        for sig in Self.signals { signal(sig, SIG_DFL) }
    }
}
