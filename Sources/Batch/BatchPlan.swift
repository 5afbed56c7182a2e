import FilePaths
import FileSafety
import JSONSchema
import Digest
import Foundation
import ProjectCompiler
import ProjectFile

/// One row to render: where, with which values, and the content hash that says whether an
/// existing output is up to date.
public struct BatchJob: Sendable {
    public var row: Int
    /// Which of the project's renditions (nil: it has none); each row renders every one.
    public var rendition: String?
    /// As the template gave it (relative paths from the current directory).
    public var outputPath: String
    /// The row's values for the project's vars (columns used only by `--output` left out).
    public var values: [VarOverride]
    public var contentHash: String
}

/// Every row checked before anything is rendered: its values typed, the project compiled with
/// them (media probed, fonts resolved), its output path made. Rows with problems are
/// rejected, each with all its diagnostics; the others become jobs.
public struct BatchPlan: Sendable {
    public var jobs: [BatchJob]
    /// Row number → its problems (messages start with "row N:").
    public var rejected: [(row: Int, error: ProjectError)]
    /// About the batch as a whole, once: data columns that are neither vars nor used by
    /// `--output` (ignored, as a spreadsheet's notes are).
    public var warnings: [Diagnostic] = []

    /// Compiles the project with one row's values as one rendition (the command line passes
    /// the real media and fonts; tests a fake).
    public typealias Compile = (Document, [VarOverride], _ rendition: String?) throws(ProjectError) -> ProjectPipeline.Loaded

    /// `stamp` goes into every content hash: the Reel version and the render options. Only the
    /// rows of `shard` are compiled, checked and become jobs; every row's output path is still
    /// made (cheaply, without compiling), so two rows naming one output are refused in whichever
    /// shards they fall, and a row's output may not be a file any row names. `rendition`: the
    /// one rendition every row makes (nil: each of the project's).
    public static func make(project: Document, data: BatchData, output: OutputTemplate,
                            stamp: String, shard: BatchShard = .all, rendition: String? = nil, compile: Compile) -> BatchPlan {
        let declared = VarsSubstitution(document: project.root)
        // The file's bytes: the text was read from them and checked to be UTF-8, so they are its UTF-8.
        let projectBytes = Array(project.source.text.utf8)
        var plan = BatchPlan(jobs: [], rejected: [])
        let sources = [project.source, data.source]
        // What the batch reads: the project, the rows, and every row's media and fonts.
        var reads = [ReadFile.project(project.source.name), ReadFile.rowsFile(data.source.name, input: data.input)]
        var outputs: [RowOutput] = []
        // A project with renditions: every row makes each of them, `{{ rendition }}` naming it.
        let renditions = Renditions.names(in: project.root)
        let each: [String?] = rendition.map { [$0] } ?? (renditions.isEmpty ? [nil] : renditions.map { $0 })
        func reject(_ row: Int, _ diagnostics: [Diagnostic], _ category: ProjectError.Category = .invalidProject) {
            let numbered = diagnostics.map { d -> Diagnostic in
                var copy = d
                copy.message = "row \(row): " + d.message
                return copy
            }
            plan.rejected.append((row, ProjectError(category, diagnostics: numbered, sources: sources)))
        }
        for row in data.rows {
            let mine = shard.contains(row: row.number)
            guard row.problems.isEmpty else {
                if mine { reject(row.number, row.problems) }
                continue
            }
            // Only vars go to the project; other columns may feed the output name, or are
            // ignored (`ignoredColumns`). A blank cell of a typed var that is not text (a colour,
            // a number, a path…) is "not given", as in a spreadsheet: the var keeps its default.
            // Blank text stays blank.
            let values = row.values.filter { declared.values[$0.name] != nil }
                .filter { !isBlankForDefault($0, declared) }
            var vars = declared
            _ = vars.override(values)
            var names: [String: String] = [:]
            for value in row.values { names[value.name] = value.text ?? "" }
            for (name, node) in vars.values { if let text = node.flatMap(\.value.scalarText) { names[name] = text } }
            let paths = each.map { rendition in
                var named = names
                if let rendition { named["rendition"] = rendition }
                return output.path(row: row.number, values: named)
            }
            for case .success(let path) in paths { outputs.append(RowOutput(row: row.number, path: path)) }
            guard mine else {
                // Another shard compiles this row; the files its values name are read all the same.
                for value in row.values {
                    guard let text = value.text, !text.isEmpty else { continue }
                    let file = resolved(text, from: project.source.name)
                    if FileManager.default.fileExists(atPath: file) {
                        reads.append(ReadFile(path: file, role: "a file named by row \(row.number)'s \(value.name)"))
                    }
                }
                continue
            }
            var jobs: [BatchJob] = []
            var rowReads: [ReadFile] = []
            for (rendition, path) in zip(each, paths) {
                let loaded: ProjectPipeline.Loaded
                do {
                    loaded = try compile(project, values, rendition)
                } catch {
                    reject(row.number, error.diagnostics.map { d in
                        var copy = d
                        copy.message = (rendition.map { "rendition \($0): " } ?? "") + d.message
                        return copy
                    }, error.category)
                    break
                }
                guard case .success(let path) = path, case nil = jobs.first(where: { $0.outputPath == path }) else {
                    if case .failure(let problem) = path {
                        reject(row.number, [Diagnostic(location: row.values.first?.location ?? output.location, path: "",
                                                       message: problem.message, hint: problem.hint)])
                    } else {
                        reject(row.number, [Diagnostic(location: output.location, path: "",
                                                       message: "\(output.input) \(output.text) gives every rendition of the row the same file",
                                                       hint: "use {{ rendition }} in \(output.input)")])
                    }
                    break
                }
                rowReads += loaded.graph.readFiles(reader: "row \(row.number)'s")
                jobs.append(BatchJob(row: row.number, rendition: rendition, outputPath: path, values: values,
                                     contentHash: contentHash(projectBytes: projectBytes, values: values, rendition: rendition,
                                                              project: loaded, stamp: stamp)))
            }
            // A row renders all its renditions or, with a problem in one, none.
            guard jobs.count == each.count else { continue }
            reads += rowReads
            plan.jobs += jobs
        }
        plan.warnings = ignoredColumns(data, declared: declared, output: output)
        plan.rejectOutputsThatAreRead(OutputSafety(reading: reads), output: output, sources: sources)
        plan.rejectDuplicateOutputs(outputs, output: output, sources: sources)
        plan.rejected.sort { $0.row < $1.row }
        return plan
    }

    /// One warning naming the columns that are neither vars nor used by `--output`, at the
    /// first cell of the first; a column that looks like a misspelt var says which.
    private static func ignoredColumns(_ data: BatchData, declared: VarsSubstitution, output: OutputTemplate) -> [Diagnostic] {
        var ignored: [VarOverride] = []
        for value in data.rows.flatMap(\.values) where declared.values[value.name] == nil && !output.names.contains(value.name)
            && !ignored.contains(where: { $0.name == value.name }) {
            ignored.append(value)
        }
        guard let first = ignored.first else { return [] }
        let vars = declared.values.keys.sorted()
        let misspelt = ignored.compactMap { column in Suggestion.closest(to: column.name, among: vars).map { "'\(column.name)' looks like the var '\($0)'" } }
        let names = ignored.map { "'\($0.name)'" }.joined(separator: ", ")
        return [Diagnostic(severity: .warning, location: first.location, path: "",
                           message: ignored.count == 1 ? "column \(names) is not a var of the project nor used by \(output.input): ignored"
                               : "columns \(names) are not vars of the project nor used by \(output.input): ignored",
                           hint: misspelt.isEmpty ? "the project's vars: \(vars.joined(separator: ", "))" : misspelt.joined(separator: "; ") + ": rename the column to use it")]
    }

    /// A row's output path, for the check that no two rows write one file.
    struct RowOutput {
        var row: Int
        var path: String
    }

    /// A value as a path the project would read: relative to the project file's folder.
    private static func resolved(_ value: String, from projectPath: String) -> String {
        absolutePath(value, from: URL(fileURLWithPath: projectPath).deletingLastPathComponent().path)
    }

    /// A row whose output is, or resolves to, a file the batch reads (the project, the rows
    /// file, any row's media or fonts) is rejected before anything is rendered.
    private mutating func rejectOutputsThatAreRead(_ safety: OutputSafety, output: OutputTemplate, sources: [SourceText]) {
        var refused: Set<Int> = []
        for job in jobs {
            // (An output that is a folder is left to the row's render, which refuses it.)
            guard !refused.contains(job.row), let refusal = safety.checkInputs(job.outputPath) else { continue }
            refused.insert(job.row)
            let diagnostic = Diagnostic(location: job.values.first?.location ?? output.location, path: "",
                                        message: "row \(job.row): " + refusal.message,
                                        hint: "make \(output.input) name files that no row reads")
            rejected.append((job.row, ProjectError(.cannotWrite, diagnostics: [diagnostic], sources: sources)))
        }
        jobs.removeAll { refused.contains($0.row) }
    }

    /// Two rows writing one file (the same path, or paths that resolve to one file through
    /// symlinks, hard links or `..`): both are rejected (which one should win is not knowable),
    /// whether or not the other row is valid or in this shard.
    private mutating func rejectDuplicateOutputs(_ outputs: [RowOutput], output: OutputTemplate, sources: [SourceText]) {
        let byPath = Dictionary(grouping: outputs) { FileKey(path: $0.path) }
        var clashRows: Set<Int> = []
        for job in jobs {
            guard !clashRows.contains(job.row), let group = byPath[FileKey(path: job.outputPath)], group.count > 1 else { continue }
            clashRows.insert(job.row)
            let others = group.filter { $0.row != job.row }.sorted { $0.row < $1.row }
            guard !others.isEmpty else { continue } // renditions of one row: refused when planned
            // Another row's path is shown when it is spelt differently (a symlink, `..`…).
            func name(_ other: RowOutput) -> String {
                other.path == job.outputPath ? String(other.row) : "\(other.row) (\(other.path))"
            }
            let listed = others.prefix(5).map(name).joined(separator: ", ") + (others.count > 5 ? " and \(others.count - 5) more" : "")
            let also = others.count == 1 ? "row \(name(others[0])) does" : "rows \(listed) do"
            let diagnostic = Diagnostic(location: job.values.first?.location ?? output.location, path: "",
                                        message: "row \(job.row): writes \(job.outputPath), as \(also)",
                                        hint: "make \(output.input) unique per row, e.g. with {{ row }} or an id column")
            rejected.append((job.row, ProjectError(.cannotWrite, diagnostics: [diagnostic], sources: sources)))
        }
        jobs.removeAll { clashRows.contains($0.row) }
    }

    /// A blank value for a var that has a default and a type other than `string`.
    static func isBlankForDefault(_ value: VarOverride, _ declared: VarsSubstitution) -> Bool {
        guard let text = value.text, text.allSatisfy(\.isWhitespace), let declaration = declared.declaration(value.name),
              let type = declaration.type, type != .string, declaration.defaultValue != nil else { return false }
        return true
    }

    /// SHA-256 of the project file's bytes, the row's values, the path, size and modification
    /// time of every media file (as its facts recorded them) and font and cue file the row's project
    /// uses, and `stamp`.
    static func contentHash(projectBytes: [UInt8], values: [VarOverride], rendition: String?, project: ProjectPipeline.Loaded,
                            stamp: String) -> String {
        var hash = SHA256()
        func field(_ text: String) { hash.update("\(text.utf8.count):\(text);") }
        field("reel-batch-1")
        field(stamp)
        if let rendition { field("rendition"); field(rendition) }
        hash.update("\(projectBytes.count):")
        hash.update(projectBytes)
        for value in values.sorted(by: { $0.name < $1.name }) {
            field(value.name)
            switch value.input {
            case .text(let text): field("text"); field(text)
            case .value(let v): field("value"); field(v.kind); field(v.scalarText ?? "")
            }
        }
        for media in project.graph.mediaReferences.sorted(by: { $0.path < $1.path }) {
            field(media.path)
            field("\(media.facts.stamp.size)")
            field("\(media.facts.stamp.modified)")
        }
        var files = Set(project.project.fonts.map(\.path)).union(project.graph.captionFiles).union(project.graph.lutFiles)
        files.formUnion(project.graph.overlays.compactMap { $0.content.textStyle?.resolvedFontFile })
        for file in files.sorted() {
            field(file)
            let attributes = try? FileManager.default.attributesOfItem(atPath: file)
            field("\((attributes?[.size] as? NSNumber)?.int64Value ?? -1)")
            field("\((attributes?[.modificationDate] as? Date)?.timeIntervalSince1970 ?? -1)")
        }
        return hash.hexDigest()
    }
}

extension Node.Value {
    var kind: String {
        switch self {
        case .null: "null"
        case .bool: "bool"
        case .number: "number"
        case .string: "string"
        case .array: "array"
        case .object: "object"
        }
    }
}
