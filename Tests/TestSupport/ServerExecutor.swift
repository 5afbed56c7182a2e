import Dispatch

/// Threads of the tests' own for in-process servers and their clients. Swift's shared
/// concurrency pool has a thread per core, and the test runner blocks those threads with the
/// synchronous renders of other suites running beside a server suite: a request could wait
/// seconds behind them. Servers in tests run with this executor as their task preference
/// (`ServiceConfiguration.executor`, `withTaskExecutorPreference`), which child tasks inherit.
/// The product's servers take none: nothing in `reel serve` or `reel preview` blocks the pool.
public final class ServerExecutor: TaskExecutor {
    public static let shared = ServerExecutor()

    /// A concurrent queue: its threads come from the system's pool, apart from Swift's.
    private let queue = DispatchQueue(label: "reel.test-server", attributes: .concurrent)

    public func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        queue.async { job.runSynchronously(on: self.asUnownedTaskExecutor()) }
    }
}
