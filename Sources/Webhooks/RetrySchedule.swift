import Digest

/// When to try a failed delivery again: delays doubling from `firstDelay` up to `maximumDelay`,
/// each shortened by a fraction below `jitter` that the delivery id and the attempt decide, so
/// deliveries that failed together (a receiver down) come back apart, and a service restarted
/// from its stored deliveries keeps their schedule. The defaults wait at most 10 s, 20 s, 40 s …
/// 320 s, then 10 min five times: 12 attempts over 48 to 61 minutes, then the delivery is given up.
public struct RetrySchedule: Sendable, Equatable {
    public var firstDelay: Duration
    public var maximumDelay: Duration
    /// Attempts in all, the first included.
    public var attempts: Int
    /// The largest fraction by which a delay is shortened, below 1.
    public var jitter: Double

    public init(firstDelay: Duration = .seconds(10), maximumDelay: Duration = .seconds(600), attempts: Int = 12, jitter: Double = 0.2) {
        self.firstDelay = firstDelay
        self.maximumDelay = maximumDelay
        self.attempts = attempts
        self.jitter = jitter
    }

    /// How long after attempt number `attempt` (1 for the first) failed to make the next one;
    /// nil when it was the last.
    public func nextAttempt(after attempt: Int, deliveryID: String) -> Duration? {
        guard attempt >= 1, attempt < attempts else { return nil }
        let first = firstDelay.milliseconds, cap = maximumDelay.milliseconds
        var delay = first
        for _ in 1..<attempt where delay < cap { delay *= 2 }
        delay = min(delay, cap)
        return .milliseconds(delay - Int64((Double(delay) * jitter * fraction(deliveryID, attempt)).rounded()))
    }

    /// A number in [0, 1) from the first 53 bits of SHA-256("<id> <attempt>").
    private func fraction(_ deliveryID: String, _ attempt: Int) -> Double {
        var hash = SHA256()
        hash.update("\(deliveryID) \(attempt)")
        let bits = hash.digest().prefix(8).reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        return Double(bits >> 11) / Double(UInt64(1) << 53)
    }
}
