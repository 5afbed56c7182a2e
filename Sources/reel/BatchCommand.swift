import ReelApplication
import ArgumentParser
import Batch
import Foundation
import ProjectCompiler
import ProjectFile
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
        var rowCount = 0
        var sources: [SourceText] = []
        let plan: BatchPlan = try reportingFailures {
            let document = try DocumentLoader.load(path: project)
            let bytes = [UInt8](FileManager.default.contents(atPath: project) ?? Data())
            let rows = try BatchData.load(path: data, input: "--data")
            rowCount = rows.rows.count
            sources = [document.source, rows.source]
            let template = try OutputTemplate(output, input: "--output")
            let renditions = Renditions.names(in: document.root)
            if renditions.count > 1, !template.names.contains("rendition") {
                throw UsageError("the project has \(renditions.count) renditions (\(renditions.joined(separator: ", "))) and every row makes each: "
                                 + "--output needs {{ rendition }}, e.g. \"out/{{ row }}-{{ rendition }}.mp4\"")
            }
            // A name --output cannot fill fails every row alike: said once, before any row.
            let known = Set(VarsSubstitution(document: document.root).values.keys).union(rows.rows.flatMap { $0.values.map(\.name) })
                .union(renditions.isEmpty ? [] : ["rendition"])
            if let problem = template.unknownName(known: known) {
                throw ProjectError(.usage, Diagnostic(location: template.location, path: "", message: problem.message, hint: problem.hint))
            }
            let workspace = try fetching.workspace()
            let stamp = "reel \(Reel.configuration.version) preset \(encoding.preset?.rawValue ?? "-")"
            return BatchPlan.make(project: document, projectBytes: bytes, data: rows, output: template, stamp: stamp,
                                  shard: shard) { document, values, rendition throws(ProjectError) in
                try workspace.open(document, vars: VarInputs(overrides: values, sources: [rows.source], rendition: rendition))
            }
        }
        if !plan.warnings.isEmpty { standardError(DiagnosticRenderer(sources: sources).render(plan.warnings)) }
        if self.plan {
            let listing = BatchListing(plan: plan, rowCount: rowCount, shard: self.shard == nil ? nil : shard, force: force, sources: sources)
            standardOutput(json ? listing.json : listing.text)
            return
        }
        for (_, error) in plan.rejected { _ = Failure.report(error) }
        if !plan.rejected.isEmpty {
            standardError("\(plan.rejected.count) row\(plan.rejected.count == 1 ? "" : "s") skipped because of the errors above: "
                          + BatchSummary.rowList(plan.rejected.map(\.row)) + "\n")
        }
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

/// `reel batch --plan`: the rows the batch (or its shard) would render, in row order.
private struct BatchListing: Encodable {
    struct Row: Encodable {
        var row: Int
        /// Null without `--shard`.
        var shard: Int?
        /// The project's rendition this entry makes (absent for a project without renditions).
        var rendition: String?
        var output: String?
        var key: String?
        /// `render`, `up to date` or `invalid`.
        var status: String
        var exitStatus: Int32?
        var errors: [String]?

        private enum CodingKeys: String, CodingKey { case row, shard, rendition, output, key, status, exitStatus, errors }

        func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(row, forKey: .row)
            try c.encode(shard, forKey: .shard) // null, not left out
            try c.encodeIfPresent(rendition, forKey: .rendition)
            try c.encodeIfPresent(output, forKey: .output)
            try c.encodeIfPresent(key, forKey: .key)
            try c.encode(status, forKey: .status)
            try c.encodeIfPresent(exitStatus, forKey: .exitStatus)
            try c.encodeIfPresent(errors, forKey: .errors)
        }
    }

    var rowCount: Int
    var shards: Int
    /// Null without `--shard`.
    var shard: Int?
    var rows: [Row]
    /// The batch's warnings (ignored columns), rendered.
    var warnings: [String]

    private enum CodingKeys: String, CodingKey { case rowCount, shards, shard, rows, warnings }

    func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(rowCount, forKey: .rowCount)
        try c.encode(shards, forKey: .shards)
        try c.encode(shard, forKey: .shard)
        try c.encode(rows, forKey: .rows)
        try c.encode(warnings, forKey: .warnings)
    }

    init(plan: BatchPlan, rowCount: Int, shard: BatchShard?, force: Bool, sources: [SourceText]) {
        let shards = shard ?? .all
        func shardOf(_ row: Int) -> Int? { shard == nil ? nil : shards.shard(ofRow: row) }
        var rows = plan.jobs.map { job in
            Row(row: job.row, shard: shardOf(job.row), rendition: job.rendition, output: job.outputPath, key: job.contentHash,
                status: !force && BatchRunner.isUpToDate(job) ? "up to date" : "render")
        }
        rows += plan.rejected.map { row, error in
            Row(row: row, shard: shardOf(row), status: "invalid", exitStatus: Failure.exitStatus(for: error),
                errors: error.diagnostics.map {
                    DiagnosticRenderer(sources: error.sources).render([$0]).trimmingCharacters(in: .newlines)
                })
        }
        self.rowCount = rowCount
        self.shards = shards.count
        self.shard = shard?.index
        self.rows = rows.sorted { $0.row < $1.row }
        warnings = plan.warnings.map { DiagnosticRenderer(sources: sources).render([$0]).trimmingCharacters(in: .newlines) }
    }

    var json: String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return String(decoding: (try? encoder.encode(self)) ?? Data(), as: UTF8.self) + "\n"
    }

    /// `row 3: render out/c.mp4 (key 1a2b3c4d5e6f)`; an invalid row with its problems below it.
    var text: String {
        rows.map { row in
            switch row.status {
            case "invalid": "row \(row.row): invalid\n" + (row.errors ?? []).joined(separator: "\n") + "\n"
            default: "row \(row.row): \(row.status) \(row.output ?? "") (key \(row.key?.prefix(12) ?? ""))\n"
            }
        }.joined()
    }
}

private func standardError(_ text: String) { FileHandle.standardError.write(Data(text.utf8)) }

/// Written at once (not buffered), so each row's line reaches a pipe or a pod's log as the row ends.
private func standardOutput(_ text: String) { FileHandle.standardOutput.write(Data(text.utf8)) }

/// Renders one row with a child `reel render` process (a crash or a failure stays in its row).
/// Text values are passed as `--set` (typed by the var's rules, as the plan checked them), typed
/// values and long texts in a temporary `--vars` JSON file.
private struct ChildRender: Sendable {
    /// Longest text passed as `--set`. Linux refuses a command-line argument over 128 KiB; a
    /// text this long is no number, colour or time, so as a JSON string it means the same.
    static let longestArgument = 16 << 10

    var project: String
    var threads: Int
    var segmentJobs: Int
    var preset: ExportPreset?

    func render(_ job: BatchJob) -> String? {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("reel-batch-\(UUID().uuidString)")
        do {
            try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        } catch {
            return "cannot make a temporary folder: \(error.localizedDescription)"
        }
        defer { try? FileManager.default.removeItem(at: scratch) }
        // `--output=PATH` in one argument: a name that starts with '-' is not taken for an option.
        // `--offline`: the rows' remote media were fetched into the cache when the batch was planned.
        var arguments = ["render", project, "--output=\(job.outputPath)", "--progress", "none", "--threads", String(threads),
                         "--jobs", String(segmentJobs), "--offline"]
        if let rendition = job.rendition { arguments += ["--rendition", rendition] }
        if let preset { arguments += ["--preset", preset.rawValue] }
        var typed: [(String, Node.Value)] = []
        for value in job.values {
            switch value.input {
            case .text(let text) where text.utf8.count > Self.longestArgument: typed.append((value.name, .string(text)))
            case .text(let text): arguments += ["--set", "\(value.name)=\(text)"]
            case .value(let v): typed.append((value.name, v))
            }
        }
        let errors = scratch.appendingPathComponent("stderr")
        do {
            if !typed.isEmpty {
                let file = scratch.appendingPathComponent("vars.json")
                try JSONText.object(typed).write(to: file, atomically: false, encoding: .utf8) // a folder of its own: nobody sees it half-written
                arguments += ["--vars", file.path]
            }
            _ = FileManager.default.createFile(atPath: errors.path, contents: nil)
            let process = Process()
            process.executableURL = Bundle.main.executableURL ?? URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
            process.arguments = arguments
            process.standardOutput = FileHandle.nullDevice
            process.standardError = try FileHandle(forWritingTo: errors)
            try process.run()
            process.waitUntilExit()
            guard process.terminationStatus == 0 else {
                let message = (try? String(contentsOf: errors, encoding: .utf8)) ?? ""
                return "reel render exited \(process.terminationStatus): " + message.trimmingCharacters(in: .whitespacesAndNewlines)
            }
            return nil
        } catch {
            return "cannot run reel render: \(error.localizedDescription)"
        }
    }
}

/// JSON text for the scalar values of a `--vars` file.
private enum JSONText {
    static func object(_ members: [(String, Node.Value)]) -> String {
        "{" + members.map { jsonStringLiteral($0) + ": " + value($1) }.joined(separator: ", ") + "}\n"
    }

    static func value(_ value: Node.Value) -> String {
        switch value {
        case .string(let s): jsonStringLiteral(s)
        case .number(let n): n
        case .bool(let b): String(b)
        case .null, .array, .object: "null"
        }
    }
}
