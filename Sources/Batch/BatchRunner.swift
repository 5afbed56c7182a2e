import AtomicFiles
import CompositionGraph
import Foundation
import RegularFiles
import Synchronization

/// Renders a plan's jobs, `jobs` at a time, skipping those whose output is up to date (its
/// record, in `.reel/NAME.reel-hash` beside it, holds the job's content hash and the size and
/// modification time the output has now: a truncated, emptied or replaced output is rendered
/// again) unless forced.
/// A failing row does not stop the others.
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

    /// The file that records the content hash an output was rendered from: in a hidden
    /// `.reel` folder of the output's folder, out of the way of the deliverables.
    public static func hashFile(for output: String) -> String {
        let url = URL(fileURLWithPath: output)
        return url.deletingLastPathComponent().appendingPathComponent(".reel").appendingPathComponent(url.lastPathComponent + ".reel-hash").path
    }

    /// Where Reel 0.3 and earlier kept it, beside the output (without the stamp, so such an
    /// output is rendered again): removed when it is.
    static func hashFileBeside(_ output: String) -> String { output + ".reel-hash" }

    public static func isUpToDate(_ job: BatchJob) -> Bool {
        guard let stamp = try? outputStamp(job),
              let recorded = try? String(contentsOfFile: hashFile(for: job.outputPath), encoding: .utf8) else { return false }
        return recorded == record(job, stamp: stamp)
    }

    /// The record of an output: the content hash it was rendered from, then its file's stamp.
    static func record(_ job: BatchJob, stamp: FileStamp) -> String {
        "\(job.contentHash)\nsize \(stamp.size) modified \(stamp.modified)\n"
    }

    private static func outputStamp(_ job: BatchJob) throws -> FileStamp {
        let file = try RegularFile.stamp(at: job.outputPath)
        return FileStamp(size: file.size, modified: file.modified)
    }

    /// Records `job`'s content hash and its freshly rendered output's stamp.
    static func record(_ job: BatchJob) throws {
        try PartialFile.write(Data(record(job, stamp: try outputStamp(job)).utf8), to: hashFile(for: job.outputPath), sync: false)
        try? FileManager.default.removeItem(atPath: hashFileBeside(job.outputPath))
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
                                try Self.record(job)
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
private final class Results: Sendable {
    private struct State {
        var nextIndex = 0
        var outcomes: [BatchRunner.Outcome?]
    }

    private let state: Mutex<State>

    init(count: Int) { state = Mutex(State(outcomes: Array(repeating: nil, count: count))) }

    func next() -> Int? {
        state.withLock { state in
            guard state.nextIndex < state.outcomes.count else { return nil }
            defer { state.nextIndex += 1 }
            return state.nextIndex
        }
    }

    func set(_ index: Int, _ outcome: BatchRunner.Outcome) { state.withLock { $0.outcomes[index] = outcome } }

    var all: [BatchRunner.Outcome] { state.withLock { $0.outcomes.map { $0 ?? .failed("not run") } } }
}
