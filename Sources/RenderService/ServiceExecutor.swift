import Dispatch

/// The threads the service's own async work runs on: request handlers, workers, deliveries.
/// Swift's shared concurrency pool has a thread per core, and any code in the process that
/// blocks one of them (a synchronous render, a process waited for) would hold the service's
/// requests behind it; these threads are the service's alone. The service's task group runs
/// with this executor as its preference, which every child task inherits.
final class ServiceExecutor: TaskExecutor {
    static let shared = ServiceExecutor()

    /// A concurrent queue: its threads come from the system's pool, apart from Swift's.
    private let queue = DispatchQueue(label: "reel.serve", attributes: .concurrent)

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        queue.async { job.runSynchronously(on: self.asUnownedTaskExecutor()) }
    }
}
