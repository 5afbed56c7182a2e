import Logging
import ReelApplication
@testable import RenderService
import ServiceLifecycle
import TestSupport

/// Runs `service` (webhook deliveries, workers) in a group of its own while `body` runs, then
/// shuts it down gracefully and waits for it to end, whether `body` succeeded or threw. `body`
/// runs on the server's threads too, as a client in a process of its own would: not on the
/// concurrency pool, whose two threads other suites' synchronous renders may hold for seconds.
func whileRunning<T>(_ service: some Service, _ body: () async throws -> T) async throws -> T {
    let group = ServiceGroup(configuration: .init(services: [service], logger: Logger(label: "test")))
    let running = Task(executorPreference: ServerExecutor.shared) { try await group.run() }
    let result: Result<T, any Error>
    do { result = .success(try await withTaskExecutorPreference(ServerExecutor.shared) { try await body() }) } catch { result = .failure(error) }
    await group.triggerGracefulShutdown()
    try await running.value
    return try result.get()
}
