import Foundation
import SQLStore
import ProjectFile

/// A project kept under a name for its token (`PUT /v1/templates/{name}`), rendered with other
/// var values by `POST /v1/templates/{name}/renders` and `…/batches`.
struct TemplateRecord: Sendable {

    var token: String
    var name: String
    /// The project member as posted: `"project": {…}` or `"project_yaml": "…"`, JSON text.
    var project: String
    var createdAt: Double
    var updatedAt: Double
}

extension TemplateRecord: StoredRow {
    static let table = "templates", key = ["token", "name"]

    init(_ row: SQLRow) throws {
        (token, name, project, createdAt, updatedAt) = (try row["token"], try row["name"], try row["project"], try row["createdAt"], try row["updatedAt"])
    }

    var columns: [(name: String, value: SQLValue)] {
        [("token", token.sqlValue), ("name", name.sqlValue), ("project", project.sqlValue), ("createdAt", createdAt.sqlValue), ("updatedAt", updatedAt.sqlValue)]
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

extension RenderOrder {
    /// The member of a template's body that holds its project (`"project": …` or
    /// `"project_yaml": …`, as JSON text), after checking the body is a project and nothing else.
    static func templateProject(of body: String) throws(ProjectError) -> String {
        let request = try DocumentLoader.load(text: body, name: bodyName, format: .json)
        guard case .object(let members) = request.root.value, members.count == 1,
              let key = members.first?.key, key == "project" || key == "project_yaml" else {
            throw ProjectError(.usage, Diagnostic(location: request.root.location, path: "",
                message: "a template's body is {\"project\": {…}} or {\"project_yaml\": \"…\"} and nothing else",
                hint: "vars, format and the rest are given when it is rendered"), source: request.source)
        }
        // The body less its braces: the one member, as posted.
        let open = body.firstIndex(of: "{")!, close = body.lastIndex(of: "}")!
        return body[body.index(after: open)..<close].trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// A render request made of a template's project and the fields posted for one render
    /// (`{ "vars": …, "format": …, … }`): the posted text with the project appended, so what was
    /// posted keeps its lines and columns.
    static func request(posted body: String, template project: String) throws(ProjectError) -> String {
        let posted = try DocumentLoader.load(text: body, name: bodyName, format: .json)
        guard case .object(let members) = posted.root.value else {
            throw ProjectError(.usage, Diagnostic(location: posted.root.location, path: "", message: "the request body is \(posted.root.excerpt), not a JSON object",
                                                  hint: "post {\"vars\": {…}}"), source: posted.source)
        }
        if let given = members.first(where: { $0.key == "project" || $0.key == "project_yaml" }) {
            throw ProjectError(.usage, Diagnostic(location: given.value.location, path: "", message: "a template render takes the template's project, not \(given.key)",
                                                  hint: "post the vars and settings only"), source: posted.source)
        }
        let close = body.lastIndex(of: "}")!
        return body[..<close] + (members.isEmpty ? "" : ",\n") + project + "}"
    }
}
