import Dispatch
import Synchronization

/// Runs `body` on the concurrency pool and blocks the calling thread until it ends, returning
/// its value or rethrowing its error: how a synchronous front end (a command) runs an async
/// server. Never call it from the threads it runs `body` on: the concurrency pool, or
/// `executor`'s when one is given.
public func waitFor<T: Sendable>(on executor: (any TaskExecutor)? = nil, _ body: @escaping @Sendable () async throws -> T) throws -> T {
    let done = DispatchSemaphore(value: 0)
    let result = Mutex<Result<T, any Error>?>(nil)
    Task(executorPreference: executor) {
        let outcome: Result<T, any Error>
        do { outcome = .success(try await body()) } catch { outcome = .failure(error) }
        result.withLock { $0 = outcome }
        done.signal()
    }
    done.wait()
    return try result.withLock { $0! }.get()
}

/// Runs a server until it ends, as `waitFor` does; Ctrl-C or SIGTERM calls `stop`, which asks
/// the server to end.
public func serveUntilStopped(stop: @escaping @Sendable () -> Void, _ body: @escaping @Sendable () async throws -> Void) throws {
    let signals = SignalCancellation(handler: stop)
    defer { withExtendedLifetime(signals) {} }
    try waitFor(body)
}
