import Foundation

/// Renders a plan's jobs, `jobs` at a time, skipping those whose output is up to date (its
/// recorded content hash, in `OUTPUT.reel-hash`, equals the job's) unless forced. A failing
/// row does not stop the others.
public struct BatchRunner: Sendable {
    public enum Outcome: Sendable, Equatable {
        case rendered
        case upToDate
        /// What went wrong (the renderer's message).
        case failed(String)
    }

    public var parallelJobs: Int
    public var force: Bool

    public init(parallelJobs: Int, force: Bool) {
        self.parallelJobs = max(1, parallelJobs)
        self.force = force
    }

    /// The file beside an output that records the content hash it was rendered from.
    public static func hashFile(for output: String) -> String { output + ".reel-hash" }

    public static func isUpToDate(_ job: BatchJob) -> Bool {
        guard FileManager.default.fileExists(atPath: job.outputPath),
              let recorded = try? String(contentsOfFile: hashFile(for: job.outputPath), encoding: .utf8) else { return false }
        return recorded.trimmingCharacters(in: .whitespacesAndNewlines) == job.contentHash
    }

    /// Runs every job; `render` returns nil on success or the failure's message, and may be
    /// called from several threads at once. `finished` is told of each row as it ends (in
    /// completion order). Returns the outcomes in job order.
    public func run(_ jobs: [BatchJob], render: @escaping @Sendable (BatchJob) -> String?,
                    finished: @escaping @Sendable (BatchJob, Outcome) -> Void) -> [Outcome] {
        let results = Results(count: jobs.count)
        let force = self.force
        let group = DispatchGroup()
        for _ in 0..<min(parallelJobs, jobs.count) {
            group.enter()
            Thread {
                while let index = results.next() {
                    let job = jobs[index]
                    let outcome: Outcome
                    if !force && Self.isUpToDate(job) {
                        outcome = .upToDate
                    } else {
                        try? FileManager.default.createDirectory(at: URL(fileURLWithPath: job.outputPath).deletingLastPathComponent(),
                                                                 withIntermediateDirectories: true)
                        if let failure = render(job) {
                            outcome = .failed(failure)
                        } else {
                            do {
                                try (job.contentHash + "\n").write(toFile: Self.hashFile(for: job.outputPath), atomically: true, encoding: .utf8)
                                outcome = .rendered
                            } catch {
                                outcome = .failed("rendered, but the hash file could not be written: \(error.localizedDescription)")
                            }
                        }
                    }
                    results.set(index, outcome)
                    finished(job, outcome)
                }
                group.leave()
            }.start()
        }
        group.wait()
        return results.all
    }
}

/// Hands out job indices and collects outcomes across threads.
private final class Results: @unchecked Sendable {
    private let lock = NSLock()
    private var nextIndex = 0
    private var outcomes: [BatchRunner.Outcome?]

    init(count: Int) { outcomes = Array(repeating: nil, count: count) }

    func next() -> Int? {
        lock.withLock {
            guard nextIndex < outcomes.count else { return nil }
            defer { nextIndex += 1 }
            return nextIndex
        }
    }

    func set(_ index: Int, _ outcome: BatchRunner.Outcome) { lock.withLock { outcomes[index] = outcome } }

    var all: [BatchRunner.Outcome] { lock.withLock { outcomes.map { $0 ?? .failed("not run") } } }
}
