import Foundation
import SQLStore
import ProjectFile

/// A project kept under a name for its token (`PUT /v1/templates/{name}`), rendered with other
/// var values by `POST /v1/templates/{name}/renders` and `…/batches`.
struct TemplateRecord: Sendable {

    var token: String
    var name: String
    /// The body as it was put: `{"project": {…}}` or `{"project_yaml": "…"}` (`TemplateBody`).
    var body: String
    var createdAt: Double
    var updatedAt: Double
}

extension TemplateRecord: StoredRow {
    static let table = "templates", key = ["token", "name"]

    init(_ row: SQLRow) throws {
        (token, name, body, createdAt, updatedAt) = (try row["token"], try row["name"], try row["body"], try row["createdAt"], try row["updatedAt"])
    }

    var columns: [(name: String, value: SQLValue)] {
        [("token", token.sqlValue), ("name", name.sqlValue), ("body", body.sqlValue), ("createdAt", createdAt.sqlValue), ("updatedAt", updatedAt.sqlValue)]
    }
}

/// Template names: what fits in a URL path segment and reads well in a list.
enum TemplateName {
    static func check(_ name: String) throws {
        guard (1...100).contains(name.count), name.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "-_.".contains($0)) }),
              name.first != "." else {
            throw ServiceError.badRequest("a template name is 1 to 100 letters, digits, '-', '_' and '.', not starting with '.'")
        }
    }
}

/// A template's body, `{"project": {…}}` or `{"project_yaml": "…"}` and nothing else, and the
/// requests made of it: its project member, as put, joined to the fields posted for one render.
/// A problem inside the project is told at its place in the template's body, where the client
/// wrote it, not in the joined text.
struct TemplateBody {
    let text: String
    /// The member's text as put: `"project": {…}` or `"project_yaml": "…"`.
    private let member: Substring
    /// Where the member's value begins in `text`.
    private let origin: SourceLocation

    init(_ text: String) throws(ProjectError) {
        let document = try DocumentLoader.load(text: text, name: RenderOrder.bodyName, format: .json)
        guard case .object(let members) = document.root.value, members.count == 1,
              let only = members.first, only.key == "project" || only.key == "project_yaml" else {
            throw ProjectError(.usage, Diagnostic(location: document.root.location, path: "",
                message: "a template's body is {\"project\": {…}} or {\"project_yaml\": \"…\"} and nothing else",
                hint: "vars, format and the rest are given when it is rendered"), source: document.source)
        }
        self.text = text
        origin = only.value.location
        // The body less its braces: the one member, as put.
        member = text[text.index(after: text.firstIndex(of: "{")!)..<text.lastIndex(of: "}")!].trimmingPrefix(while: \.isWhitespace)
    }

    /// The member as a JSON object (`{"project": …}`), for showing the template.
    var project: [String: Any] {
        (try? JSONSerialization.jsonObject(with: Data(("{" + member + "}").utf8)) as? [String: Any]) ?? [:]
    }

    /// The render request made of the fields posted for one render (`{ "vars": …, "format": …, … }`)
    /// and this project: the posted text with the project appended, so what was posted keeps
    /// its lines and columns. `check` runs on it; a problem it finds inside the project is moved
    /// to its place in this body, named `name`.
    func request(posted body: String, name: String, check: (String) throws -> Void) throws -> String {
        let posted = try DocumentLoader.load(text: body, name: RenderOrder.bodyName, format: .json)
        guard case .object(let members) = posted.root.value else {
            throw ProjectError(.usage, Diagnostic(location: posted.root.location, path: "", message: "the request body is \(posted.root.excerpt), not a JSON object",
                                                  hint: "post {\"vars\": {…}}"), source: posted.source)
        }
        if let given = members.first(where: { $0.key == "project" || $0.key == "project_yaml" }) {
            throw ProjectError(.usage, Diagnostic(location: given.value.location, path: "", message: "a template render takes the template's project, not \(given.key)",
                                                  hint: "post the vars and settings only"), source: posted.source)
        }
        let request = String(body[..<body.lastIndex(of: "}")!]) + (members.isEmpty ? "" : ",\n") + member + "}"
        do {
            try check(request)
        } catch let error as ProjectError {
            throw relocated(error, in: request, name: name)
        }
        return request
    }

    /// `error`, with what lies in the project part of `request` moved to this body.
    private func relocated(_ error: ProjectError, in request: String, name: String) -> ProjectError {
        guard let joined = try? DocumentLoader.load(text: request, name: RenderOrder.bodyName, format: .json),
              let start = (joined.root["project"] ?? joined.root["project_yaml"])?.location else { return error }
        let diagnostics = error.diagnostics.map { diagnostic in
            let at = diagnostic.location
            guard at.file == RenderOrder.bodyName, (at.line, at.column) >= (start.line, start.column) else { return diagnostic }
            var moved = diagnostic
            moved.location = SourceLocation(file: name, line: at.line - start.line + origin.line,
                                            column: at.line == start.line ? at.column - start.column + origin.column : at.column)
            return moved
        }
        return ProjectError(error.category, diagnostics: diagnostics, sources: error.sources.filter { $0.name != name } + [SourceText(name: name, text: text)])
    }
}
