import Batch
import Foundation
import ProjectCompiler
import ProjectFile
import ReelApplication
import RenderEngine

/// `POST /v1/templates/{name}/batches`'s body: `{"rows": [{"headline": "One"}, …], "format": …, …}`,
/// the fields of a render but its vars, which each row gives.
struct BatchOrder: PostedBody {
    var rows: [PostedNode]
    var settings: RenderSettings

    static let fields = ["rows"] + RenderSettings.fields.filter { $0 != "vars" }

    private enum CodingKeys: String, CodingKey { case rows }

    init(from decoder: any Decoder) throws {
        rows = try decoder.container(keyedBy: CodingKeys.self).decode([PostedNode].self, forKey: .rows)
        settings = try RenderSettings(from: decoder)
    }
}

extension ServiceCore {
    /// The template the route's `:name` names, if it is the token's.
    func template(_ context: ServiceContext) async throws -> TemplateRecord {
        let name = try context.parameters.require("name")
        guard let template = try await store.template(name, token: context.token) else { throw ServiceError.notFound("no template \(name)") }
        return template
    }

    /// A batch of `template`'s renders, one per row of `body`, planned on the check pool as `reel
    /// batch` plans its rows (`Workspace.prepareBatch`): every row checked first, each problem at
    /// its place in what was posted (a row's values in the body, the project's in the template);
    /// a valid row becomes a render (with the batch's other fields), an invalid one keeps its
    /// problems. All rows invalid: 422 with each row's problems. Also the batch's warnings (a
    /// row's value that is no var of the template, ignored).
    func batch(of template: TemplateRecord, posted body: String, token: String) async throws -> (batch: BatchRecord, warnings: [Diagnostic]) {
        let planned = try await checks.run { try plannedRows(of: template, posted: body, token: token) }
        guard try await store.pendingCount(token: token) + planned.renders.count <= pendingPerToken else {
            throw ServiceError(status: .tooManyRequests, message: "this batch would take the token past \(pendingPerToken) renders queued or rendering; post it when some are done")
        }
        let batch = BatchRecord(id: "b_" + randomHex(bytes: 16), token: token, template: template.name, createdAt: Date().timeIntervalSince1970,
                                rows: String(decoding: try JSONEncoder().encode(planned.rows), as: UTF8.self))
        try await store.add(batch, renders: planned.renders)
        return (batch, planned.warnings)
    }

    /// The batch's rows planned: the renders of its valid rows, every row with its render or its
    /// problems, and the batch's warnings.
    private func plannedRows(of template: TemplateRecord, posted body: String, token: String) throws
        -> (renders: [RenderRecord], rows: [BatchRecord.Row], warnings: [Diagnostic]) {
        let (order, request) = try PostedDecoder.body(BatchOrder.self, from: body)
        guard !order.rows.isEmpty else { throw ServiceError.badRequest("a batch has at least one row: {\"rows\": [{\"name\": value, …}, …]}") }
        guard order.rows.count <= pendingPerToken else { throw ServiceError(status: .contentTooLarge, message: "a batch has at most \(pendingPerToken) rows") }
        let document = try TemplateBody(template.body, name: TemplateBody.shownName(template.name)).document()
        let rows = try BatchData.rows(of: Node(.array(order.rows.map(\.node)), at: request.root.location), source: request.source, input: "rows",
                                      holder: "rows")
        let container = order.settings.container, preset = order.settings.preset?.preset
        let plan = try workspace.prepareBatch(BatchRequest(
            document: document, rows: rows, output: "\(folders.outputs)/batch-{{ row }}.\(container.rawValue)", outputInput: "format",
            stamp: "reel \(ExportSession.version) preset \(preset?.rawValue ?? "-")",
            rendition: order.settings.rendition ?? Renditions.names(in: document.root).first,
            target: OutputTarget(path: "render.\(container.rawValue)", presetCodecs: preset != nil)))
        if let unavailable = plan.rejected.first(where: { $0.error.category == .unavailable }) { throw unavailable.error }
        guard !plan.jobs.isEmpty else {
            throw ProjectError(.invalidProject, diagnostics: plan.rejected.flatMap { $0.error.diagnostics }, sources: [document.source, request.source])
        }
        var renders: [RenderRecord] = [], shown: [BatchRecord.Row] = []
        for job in plan.jobs {
            var settings = order.settings
            settings.vars = PostedVars(job.values)
            let render = RenderRecord(token: token, request: try RenderOrder.text(of: settings), template: template, idempotencyKey: nil)
            renders.append(render)
            shown.append(BatchRecord.Row(row: job.row, render: render.id, problems: nil))
        }
        for (row, error) in plan.rejected {
            shown.append(BatchRecord.Row(row: row, render: nil, problems: try BatchRecord.problemsText(paths.values(of: error.diagnostics))))
        }
        return (renders, shown.sorted { $0.row < $1.row }, plan.warnings)
    }

    /// The batch as the API shows it, its renders as they stand now.
    func view(_ batch: BatchRecord, warnings: [Diagnostic]? = nil) async throws -> BatchView {
        let rows = batch.decodedRows
        let renders = try await store.renders(rows.compactMap(\.render))
        var counts = Dictionary(uniqueKeysWithValues: RenderStatus.allCases.map { ($0.rawValue, 0) })
        let shown = rows.map { row in
            let status = row.render.flatMap { renders[$0]?.status.rawValue } ?? "invalid"
            counts[status, default: 0] += row.render == nil ? 0 : 1
            return BatchView.Row(row: row.row, render: row.render, status: status, problems: row.decodedProblems)
        }
        return BatchView(id: batch.id, template: batch.template, createdAt: RenderView.time(batch.createdAt), rows: shown, renders: counts,
                         warnings: warnings.map { paths.values(of: $0).map(DiagnosticView.init) })
    }
}

/// A batch as the API shows it: `{ id, template, created_at, rows: [ {row, render, status,
/// problems} ], renders: {queued: n, …} }`, and as it is posted its `warnings`.
struct BatchView: Encodable {
    var id: String
    var template: String
    var createdAt: String
    var rows: [Row]
    var renders: [String: Int]
    var warnings: [DiagnosticView]?

    struct Row: Encodable {
        var row: Int
        var render: String?
        /// `invalid` for a row with problems, else its render's status.
        var status: String
        var problems: [DiagnosticView]?

        func encode(to encoder: any Encoder) throws {
            var fields = encoder.container(keyedBy: CodingKeys.self)
            try fields.encode(row, forKey: .row)
            try fields.encode(render, forKey: .render)
            try fields.encode(status, forKey: .status)
            try fields.encode(problems, forKey: .problems)
        }

        private enum CodingKeys: String, CodingKey { case row, render, status, problems }
    }

    private enum CodingKeys: String, CodingKey {
        case id, template, createdAt = "created_at", rows, renders, warnings
    }
}
