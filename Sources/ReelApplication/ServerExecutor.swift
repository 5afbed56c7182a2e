import Dispatch

/// The threads a server's own async work runs on (`reel serve`'s request handlers, workers and
/// deliveries; `reel preview`'s page): Swift's shared concurrency pool has a thread per core,
/// and any code in the process that blocks one of them (a synchronous render, a process waited
/// for) would hold the server's requests behind it. A server's task group runs with this
/// executor as its preference, which every child task inherits.
public final class ServerExecutor: TaskExecutor {
    public static let shared = ServerExecutor()

    /// A concurrent queue: its threads come from the system's pool, apart from Swift's.
    private let queue = DispatchQueue(label: "reel.server", attributes: .concurrent)

    public func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        queue.async { job.runSynchronously(on: self.asUnownedTaskExecutor()) }
    }
}
