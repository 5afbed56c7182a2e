import Foundation
import Hummingbird
import ProjectFile

/// A template as the API shows it: `{ name, created_at, updated_at, project }` (the project as
/// stored: a JSON value, or YAML text under `project_yaml`).
enum TemplateView {
    static func json(_ template: TemplateRecord) -> [String: Any] {
        let project = (try? TemplateBody(template.body).project) ?? [:]
        return project.merging(["name": template.name, "created_at": RenderView.time(template.createdAt),
                               "updated_at": RenderView.time(template.updatedAt)]) { $1 }
    }
}

extension ServiceCore {
    /// The template the route's `:name` names, if it is the token's.
    func template(_ context: ServiceContext) async throws -> TemplateRecord {
        let name = try context.parameters.require("name")
        guard let template = try await store.template(name, token: context.token) else { throw ServiceError.notFound("no template \(name)") }
        return template
    }

    /// `{ "rows": [ {vars}, … ], "format": …, … }`: every row checked first, as `reel batch`
    /// does; a valid row becomes a render (with the batch's other fields), an invalid one keeps
    /// its problems. All rows invalid: 422 with each row's problems.
    func batch(of template: TemplateRecord, posted body: String, token: String) async throws -> BatchRecord {
        let (renders, checked) = try await checks.run { try checkedRows(of: template, posted: body, token: token) }
        guard try await store.pendingCount(token: token) + renders.count <= pendingPerToken else {
            throw ServiceError(status: .tooManyRequests, message: "this batch would take the token past \(pendingPerToken) renders queued or rendering; post it when some are done")
        }
        let id = "b_" + randomHex(bytes: 16)
        let batch = BatchRecord(id: id, token: token, template: template.name, createdAt: Date().timeIntervalSince1970,
                                rows: String(decoding: try JSONEncoder().encode(checked), as: UTF8.self))
        try await store.add(batch, renders: renders)
        return batch
    }

    /// The batch's rows checked (on the check pool): the renders of its valid rows, and every row
    /// with its render or its problems.
    private func checkedRows(of template: TemplateRecord, posted body: String, token: String) throws -> ([RenderRecord], [BatchRecord.Row]) {
        guard let object = try? JSONSerialization.jsonObject(with: Data(body.utf8)) as? [String: Any],
              let rows = object["rows"] as? [[String: Any]], !rows.isEmpty else {
            throw ServiceError.badRequest("a batch is {\"rows\": [{\"name\": value, …}, …]} with at least one row, and the fields a render takes")
        }
        guard rows.count <= pendingPerToken else { throw ServiceError(status: .contentTooLarge, message: "a batch has at most \(pendingPerToken) rows") }
        var shared = object
        shared["rows"] = nil
        let project = try TemplateBody(template.body)
        var renders: [RenderRecord] = [], checked: [BatchRecord.Row] = []
        for (index, vars) in rows.enumerated() {
            var fields = shared
            fields["vars"] = vars
            let posted = String(decoding: try JSONSerialization.data(withJSONObject: fields, options: [.sortedKeys]), as: UTF8.self)
            do {
                let request = try project.request(posted: posted, name: "templates/" + template.name) { _ = try loaded($0) }
                let render = RenderRecord(token: token, request: request, idempotencyKey: nil)
                renders.append(render)
                checked.append(BatchRecord.Row(row: index + 1, render: render.id, problems: nil))
            } catch let error as ProjectError where error.category != .unavailable {
                let problems = try JSONSerialization.data(withJSONObject: Self.diagnostics(error.diagnostics))
                checked.append(BatchRecord.Row(row: index + 1, render: nil, problems: String(decoding: problems, as: UTF8.self)))
            }
        }
        guard !renders.isEmpty else {
            let all = checked.compactMap(\.problems).compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [[String: Any]] }.flatMap { $0 }
            throw ServiceError(status: .unprocessableContent, message: "every row of the batch is invalid: " + all.compactMap { $0["message"] as? String }.joined(separator: "; "))
        }
        return (renders, checked)
    }

    /// `{ id, template, created_at, rows: [ {row, render, status, problems} ], renders: {queued: n, …} }`.
    func view(_ batch: BatchRecord) async throws -> [String: Any] {
        let rows = batch.decodedRows
        let renders = try await store.renders(rows.compactMap(\.render))
        var counts = Dictionary(uniqueKeysWithValues: RenderStatus.allCases.map { ($0.rawValue, 0) })
        let shown: [[String: Any]] = rows.map { row in
            let status = row.render.flatMap { renders[$0]?.status.rawValue } ?? "invalid"
            counts[status, default: 0] += row.render == nil ? 0 : 1
            let problems: Any = row.problems.flatMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) } ?? NSNull()
            return ["row": row.row, "render": row.render ?? NSNull(), "status": status, "problems": problems]
        }
        return ["id": batch.id, "template": batch.template, "created_at": RenderView.time(batch.createdAt), "rows": shown, "renders": counts]
    }
}
