import Batch
import ProjectCompiler
import ProjectFile

/// What a front end asks of a batch: the project (its text loaded once), the rows, the
/// output template, and which rows. `outputInput` and `rowsInput` name where the template and
/// the rows came from, as the front end's user knows them (an option, a request field).
public struct BatchRequest: Sendable {
    public var document: Document
    public var rows: BatchData
    public var output: String
    public var outputInput: String
    /// The Reel version and the render settings: part of every row's content hash.
    public var stamp: String
    public var shard: BatchShard
    /// The one rendition every row makes (nil: each of the project's).
    public var rendition: String?
    /// What is known of every row's output (a service's container), which each row's output
    /// settings are fitted to as its render will fit them.
    public var target: OutputTarget

    public init(document: Document, rows: BatchData, output: String, outputInput: String, stamp: String, shard: BatchShard = .all,
                rendition: String? = nil, target: OutputTarget = OutputTarget()) {
        self.document = document
        self.rows = rows
        self.output = output
        self.outputInput = outputInput
        self.stamp = stamp
        self.shard = shard
        self.rendition = rendition
        self.target = target
    }

    /// The texts the batch's diagnostics point into.
    public var sources: [SourceText] { [document.source, rows.source] }
}

extension Workspace {
    /// Every row of `request` checked (values typed, project compiled with this machine's
    /// media and fonts, remote media fetched into the cache) before anything is rendered.
    /// Throws, before any row, what would fail every row alike: a template that names no var
    /// or column, or a project with renditions whose template cannot tell them apart.
    public func prepareBatch(_ request: BatchRequest) throws(ProjectError) -> BatchPlan {
        let template = try OutputTemplate(request.output, input: request.outputInput)
        let document = request.document
        let renditions = Renditions.names(in: document.root)
        if request.rendition == nil, renditions.count > 1, !template.names.contains("rendition") {
            throw ProjectError(.usage, Diagnostic(
                location: template.location, path: "",
                message: "the project has \(renditions.count) renditions (\(renditions.joined(separator: ", "))) and every row makes each: "
                    + "\(template.input) needs {{ rendition }}",
                hint: "e.g. \"out/{{ row }}-{{ rendition }}.mp4\""))
        }
        let known = Set(VarsSubstitution(document: document.root).values.keys).union(request.rows.rows.flatMap { $0.values.map(\.name) })
            .union(renditions.isEmpty ? [] : ["rendition"])
        if let problem = template.unknownName(known: known) {
            throw ProjectError(.usage, Diagnostic(location: template.location, path: "", message: problem.message, hint: problem.hint))
        }
        let rowsSource = request.rows.source, target = request.target
        return BatchPlan.make(project: document, data: request.rows, output: template, stamp: request.stamp,
                              shard: request.shard, rendition: request.rendition) { document, values, rendition throws(ProjectError) in
            try open(document, vars: VarInputs(overrides: values, sources: [rowsSource], rendition: rendition), target: target)
        }
    }
}
