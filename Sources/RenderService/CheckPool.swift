import Hummingbird
import NIOPosix
import Synchronization

/// Where posted projects are checked (loaded, validated against the schema, every media file
/// probed: up to seconds of CPU each for a large project): threads of their own, never the
/// server's, so a heavy check delays only the checks behind it, never a status request. At most
/// `capacity` checks are running or waiting; one more is refused at once with 503 and
/// `Retry-After`, instead of making every client wait longer.
final class CheckPool: Sendable {
    private let threads: NIOThreadPool
    let capacity: Int
    private let admitted = Mutex(0)

    /// `threads` checks run at once (one per core is the most that helps); `waiting` more wait.
    init(threads: Int, waiting: Int) {
        self.threads = NIOThreadPool(numberOfThreads: max(1, threads))
        capacity = max(1, threads) + max(0, waiting)
        self.threads.start()
    }

    deinit { threads.shutdownGracefully { _ in } }

    /// Checks running or waiting now.
    var admittedCount: Int { admitted.withLock { $0 } }

    /// Runs `check` on one of the pool's threads, or throws 503 when the pool is full.
    func run<T: Sendable>(_ check: @escaping @Sendable () throws -> T) async throws -> T {
        let capacity = capacity
        guard admitted.withLock({ count in
            guard count < capacity else { return false }
            count += 1
            return true
        }) else {
            throw ServiceError(status: .serviceUnavailable,
                               message: "the service is checking as many projects as it takes at once (\(capacity)); post again in a few seconds")
        }
        defer { admitted.withLock { $0 -= 1 } }
        return try await threads.runIfActive(check)
    }
}
