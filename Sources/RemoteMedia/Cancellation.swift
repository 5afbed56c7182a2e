import Foundation

/// Whether the fetches were cancelled: set once from any thread, checked by a download and
/// waited on between its attempts.
///
/// @unchecked: `cancelled` is used only under `condition` (an `NSCondition`: a `Mutex` cannot wait).
final class Cancellation: @unchecked Sendable {
    private let condition = NSCondition()
    private var cancelled = false

    func cancel() {
        condition.withLock {
            cancelled = true
            condition.broadcast()
        }
    }

    var isCancelled: Bool { condition.withLock { cancelled } }

    /// Waits `seconds`, or less if cancelled meanwhile; true when cancelled.
    func wait(_ seconds: Double) -> Bool {
        let end = Date(timeIntervalSinceNow: seconds)
        return condition.withLock {
            while !cancelled && condition.wait(until: end) {}
            return cancelled
        }
    }
}
