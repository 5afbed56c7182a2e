import Dispatch
import Synchronization

/// Runs `body` on the concurrency pool and blocks the calling thread until it ends, rethrowing
/// its error: how a synchronous front end (a command) runs an async server.
public func waitFor(_ body: @escaping @Sendable () async throws -> Void) throws {
    let done = DispatchSemaphore(value: 0)
    let failure = Mutex<(any Error)?>(nil)
    Task {
        do { try await body() } catch { failure.withLock { $0 = error } }
        done.signal()
    }
    done.wait()
    if let error = failure.withLock({ $0 }) { throw error }
}

/// Runs a server until it ends, as `waitFor` does; Ctrl-C or SIGTERM calls `stop`, which asks
/// the server to end.
public func serveUntilStopped(stop: @escaping @Sendable () -> Void, _ body: @escaping @Sendable () async throws -> Void) throws {
    let signals = SignalCancellation(handler: stop)
    defer { withExtendedLifetime(signals) {} }
    try waitFor(body)
}
