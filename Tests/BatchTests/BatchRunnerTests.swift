@testable import Batch
import Foundation
import ProjectFile
import Testing

/// The runner with a stand-in renderer: which rows run, in parallel, what is skipped, and
/// when a hash file is written.
struct BatchRunnerTests {
    func jobs(in dir: URL, count: Int) -> [BatchJob] {
        (1...count).map { BatchJob(row: $0, outputPath: dir.appendingPathComponent("out/\($0).mp4").path, values: [], contentHash: "hash-\($0)") }
    }

    /// Writes the output (a failure for the rows in `failing`) and counts renders running at once.
    final class FakeRenderer: @unchecked Sendable {
        let failing: Set<Int>
        private let lock = NSLock()
        private var running = 0
        private(set) var mostAtOnce = 0
        private(set) var rendered: [Int] = []

        init(failing: Set<Int> = []) { self.failing = failing }

        func render(_ job: BatchJob) -> String? {
            lock.withLock { running += 1; mostAtOnce = max(mostAtOnce, running) }
            Thread.sleep(forTimeInterval: 0.05)
            lock.withLock { running -= 1; rendered.append(job.row) }
            if failing.contains(job.row) { return "boom" }
            return FileManager.default.createFile(atPath: job.outputPath, contents: Data("video \(job.row)".utf8)) ? nil : "cannot write"
        }
    }

    func scratch() throws -> URL {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("reel-runner-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        return dir
    }

    @Test func failuresDoNotStopTheOthersAndGetNoHash() throws {
        let dir = try scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        let renderer = FakeRenderer(failing: [2])
        let outcomes = BatchRunner(parallelJobs: 2, force: false).run(jobs(in: dir, count: 4), render: renderer.render) { _, _ in }
        #expect(outcomes == [.rendered, .failed("boom"), .rendered, .rendered])
        #expect(renderer.rendered.sorted() == [1, 2, 3, 4])
        #expect(renderer.mostAtOnce == 2)
        #expect(try String(contentsOfFile: BatchRunner.hashFile(for: dir.appendingPathComponent("out/1.mp4").path), encoding: .utf8)
            .hasPrefix("hash-1\nsize 7 modified "))
        #expect(!FileManager.default.fileExists(atPath: BatchRunner.hashFile(for: dir.appendingPathComponent("out/2.mp4").path)))
    }

    /// The hashes live in a hidden `.reel` folder, not among the deliverables; one kept beside
    /// an output by an earlier Reel lacks the output's stamp, so the row renders again and it goes.
    @Test func hashesAreKeptOutOfTheDeliverablesFolder() throws {
        let dir = try scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        var list = jobs(in: dir, count: 2)
        _ = BatchRunner(parallelJobs: 1, force: false).run([list[0]], render: FakeRenderer().render) { _, _ in }
        let out = dir.appendingPathComponent("out")
        #expect(try FileManager.default.contentsOfDirectory(atPath: out.path).sorted() == [".reel", "1.mp4"])
        #expect(try FileManager.default.contentsOfDirectory(atPath: out.appendingPathComponent(".reel").path) == ["1.mp4.reel-hash"])
        // An output and its hash beside it, as Reel 0.3 wrote them: rendered again, then up to date.
        try Data("old".utf8).write(to: URL(fileURLWithPath: list[1].outputPath))
        try "hash-2\n".write(toFile: list[1].outputPath + ".reel-hash", atomically: true, encoding: .utf8)
        #expect(BatchRunner(parallelJobs: 1, force: false).run([list[1]], render: FakeRenderer().render) { _, _ in } == [.rendered])
        #expect(!FileManager.default.fileExists(atPath: list[1].outputPath + ".reel-hash"))
        #expect(try String(contentsOfFile: BatchRunner.hashFile(for: list[1].outputPath), encoding: .utf8).hasPrefix("hash-2\n"))
        #expect(BatchRunner(parallelJobs: 1, force: false).run([list[1]], render: FakeRenderer().render) { _, _ in } == [.upToDate])
        list[1].contentHash = "changed"
        #expect(BatchRunner(parallelJobs: 1, force: false).run([list[1]], render: FakeRenderer().render) { _, _ in } == [.rendered])
    }

    @Test func upToDateRowsAreSkippedUnlessForcedAndAChangedHashRendersAgain() throws {
        let dir = try scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        var list = jobs(in: dir, count: 3)
        _ = BatchRunner(parallelJobs: 1, force: false).run(list, render: FakeRenderer().render) { _, _ in }
        let again = FakeRenderer()
        list[1].contentHash = "changed"
        #expect(BatchRunner(parallelJobs: 3, force: false).run(list, render: again.render) { _, _ in } == [.upToDate, .rendered, .upToDate])
        #expect(again.rendered == [2])
        // An output that was deleted, emptied, cut short or replaced is rendered again even
        // though its hash file is there: the record holds the output's size and time.
        try FileManager.default.removeItem(atPath: list[0].outputPath)
        #expect(!BatchRunner.isUpToDate(list[0]))
        let handle = try #require(FileHandle(forWritingAtPath: list[2].outputPath))
        try handle.truncate(atOffset: 3)
        try handle.close()
        #expect(!BatchRunner.isUpToDate(list[2]))
        try Data().write(to: URL(fileURLWithPath: list[2].outputPath))
        #expect(!BatchRunner.isUpToDate(list[2]))
        let forced = FakeRenderer()
        #expect(BatchRunner(parallelJobs: 1, force: true).run(list, render: forced.render) { _, _ in } == [.rendered, .rendered, .rendered])
        // One job at a time renders in row order.
        #expect(forced.rendered == [1, 2, 3])
        #expect(forced.mostAtOnce == 1)
    }
}

struct BatchSummaryTests {
    func plan(jobs: Int, rejected: [(Int, ProjectError.Category)]) -> BatchPlan {
        var plan = BatchPlan(jobs: [], rejected: [])
        plan.jobs = (1...jobs).map { BatchJob(row: $0, outputPath: "\($0).mp4", values: [], contentHash: "") }
        plan.rejected = rejected.map { ($0.0, ProjectError($0.1, diagnostics: [])) }
        return plan
    }

    @Test func theLineSaysWhatHappened() {
        let mixed = BatchSummary(plan: plan(jobs: 3, rejected: [(4, .invalidProject), (5, .missingFile)]),
                                 outcomes: [.rendered, .upToDate, .failed("x")], seconds: 12.345)
        #expect(mixed.line == "batch: 1 rendered, 1 up to date, 1 failed (row 3), 2 invalid (rows 4, 5), 12.3s")
        #expect(mixed.failedRows == [3] && mixed.invalidRows == [4, 5])
        let clean = BatchSummary(plan: plan(jobs: 2, rejected: []), outcomes: [.rendered, .upToDate], seconds: 0.04)
        #expect(clean.line == "batch: 1 rendered, 1 up to date, 0 failed, 0 invalid, 0.0s")
    }
}
