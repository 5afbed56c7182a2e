import ReelApplication
import ArgumentParser
import Batch
import Foundation
import ProjectFile
import ReelVersion
import RenderEngine

/// `reel batch PROJECT --data rows.csv --output "out/{{ id }}.mp4" [--jobs N] [--force]`.
struct BatchRender: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "batch",
        abstract: "Render a project once per row of a CSV, JSON, YAML or JSON Lines file of var values.",
        discussion: """
        Every row is checked (values typed, project compiled, media probed) before the first render; \
        rows with problems are reported together and skipped. A row whose output is up to date \
        (same project, values, media, fonts and Reel: the content hash in .reel/OUTPUT.reel-hash beside it) is skipped \
        unless --force. With --shard K/N only the rows that fall to shard K are checked and rendered \
        (row r falls to shard (r - 1) mod N), so N workers cover every row once. --plan lists the rows \
        (output, content key, status, problems) and renders nothing. See docs/batch.md and docs/scale-out.md.
        \(ExitStatus.help([.success: "every row rendered or up to date (with --plan: the list was printed)",
                            .failure: "a render failed", .invalidInput: "a row is invalid", .missingFile: "a file is missing",
                            .cannotWrite: "a row's output is a file the batch reads or another row's output",
                            .tryLater: "a remote media file cannot be fetched now", .usage: "bad usage"])) \
        \(ExitStatus.usage.rawValue), \(ExitStatus.invalidInput.rawValue), \(ExitStatus.missingFile.rawValue) and \
        \(ExitStatus.cannotWrite.rawValue) are the same on a retry; \(ExitStatus.failure.rawValue) may not be.
        """
    )

    @Argument(help: "The project file (YAML or JSON).")
    var project: String

    @Option(help: ArgumentHelp("Rows: .csv with a header of var names, .json/.yaml list of objects, or .jsonl.", valueName: "file"))
    var data: String

    @Option(name: .shortAndLong, help: ArgumentHelp("Output path template: {{ var }}, {{ row }} and, for a project with renditions (each row makes each), {{ rendition }}; e.g. \"out/{{ id }}.mp4\".", valueName: "template"))
    var output: String

    @Option(help: "Rows rendered at the same time (each in its own reel render process).")
    var jobs: Int = 1

    @Flag(help: "Render every row, even when its output is up to date.")
    var force = false

    @Option(help: ArgumentHelp("Only the rows of shard K of N (numbered from 0): row r falls to shard (r - 1) mod N.", valueName: "K/N"))
    var shard: String?

    @Flag(help: "List the rows (output, content key, up to date or not, problems) and render nothing.")
    var plan = false

    @Flag(help: "With --plan: print JSON.")
    var json = false

    @OptionGroup var encoding: EncodingOptions

    @OptionGroup var fetching: MediaFetching

    func validate() throws {
        guard jobs >= 1 else { throw ValidationError("--jobs must be at least 1") }
        if let shard, case .failure(let problem) = BatchShard.parse(shard) {
            let example = problem.reason == .notKOfN ? "expected K/N, e.g. --shard 0/4 for the first of 4 shards" : "\(problem.reason)"
            throw ValidationError("--shard \(shard): \(example)")
        }
        if json && !plan { throw ValidationError("--json goes with --plan") }
    }

    func run() throws {
        let start = Date()
        let shard = try self.shard.map { try BatchShard.parse($0).get() } ?? .all
        let (request, plan): (BatchRequest, BatchPlan) = try reportingFailures {
            let request = BatchRequest(document: try DocumentLoader.load(path: project), rows: try BatchData.load(path: data, input: "--data"),
                                       output: output, outputInput: "--output",
                                       stamp: "reel \(ReelVersion.current) preset \(encoding.preset?.rawValue ?? "-")", shard: shard)
            return (request, try fetching.workspace().prepareBatch(request))
        }
        if !plan.warnings.isEmpty { standardError(DiagnosticRenderer(sources: request.sources).render(plan.warnings)) }
        if self.plan {
            let listing = BatchListing(plan: plan, rowCount: request.rows.rows.count, shard: self.shard == nil ? nil : shard, force: force,
                                       sources: request.sources, exitStatus: Failure.exitStatus(for:))
            standardOutput(json ? listing.json : listing.text)
            return
        }
        for (_, error) in plan.rejected { _ = Failure.report(error) }
        if let skipped = BatchSummary.skippedLine(plan.rejected.map(\.row)) { standardError(skipped + "\n") }
        // The rows share the cores: each child renders its segments that many at a time.
        let renderer = ChildRender(project: project, threads: encoding.threads, segmentJobs: max(1, RenderingOptions.defaultJobs / jobs),
                                   preset: encoding.preset)
        let outcomes = BatchRunner(parallelJobs: jobs, force: force).run(plan.jobs, render: renderer.render) { job, outcome in
            switch outcome {
            case .rendered: standardOutput("row \(job.row): rendered \(job.outputPath)\n")
            case .upToDate: standardOutput("row \(job.row): up to date \(job.outputPath)\n")
            case .failed(let message): standardOutput("row \(job.row): FAILED \(job.outputPath)\n\(message)\n")
            }
        }
        let summary = BatchSummary(plan: plan, outcomes: outcomes, seconds: Date().timeIntervalSince(start))
        standardOutput(summary.line + "\n")
        let status = Failure.batchExitStatus(failedRows: summary.failedRows.count, rejected: plan.rejected.map(\.error))
        if status != 0 { throw ExitCode(status) }
    }
}

private func standardError(_ text: String) { FileHandle.standardError.write(Data(text.utf8)) }

/// Written at once (not buffered), so each row's line reaches a pipe or a pod's log as the row ends.
private func standardOutput(_ text: String) { FileHandle.standardOutput.write(Data(text.utf8)) }
