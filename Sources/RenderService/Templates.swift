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

/// A template's body, `{"project": {…}}` or `{"project_yaml": "…"}` and nothing else, read under
/// the name its diagnostics give it: `request` as it is put, `templates/NAME` when a render
/// of it is posted, so a problem inside its project is told where the client wrote it.
struct TemplateBody: Sendable {
    let text: String
    private let project: Project

    private enum Project: Sendable {
        case json(Node, SourceText)
        case yaml(String)
    }

    private struct Member: Decodable {
        var project: PostedNode?
        var projectYAML: String?

        private enum CodingKeys: String, CodingKey {
            case project, projectYAML = "project_yaml"
        }
    }

    /// The name a template's body has in the diagnostics of its renders.
    static func shownName(_ template: String) -> String { "templates/" + template }

    init(_ text: String, name: String = RenderOrder.bodyName) throws(ProjectError) {
        let document = try DocumentLoader.load(text: text, name: name, format: .json)
        guard case .object(let members) = document.root.value, members.count == 1,
              let only = members.first, only.key == "project" || only.key == "project_yaml" else {
            throw ProjectError(.usage, Diagnostic(location: document.root.location, path: "",
                message: "a template's body is {\"project\": {…}} or {\"project_yaml\": \"…\"} and nothing else",
                hint: "vars, format and the rest are given when it is rendered"), source: document.source)
        }
        let member = try PostedDecoder.decode(Member.self, from: document)
        self.text = text
        project = member.project.map { .json($0.node, document.source) } ?? .yaml(member.projectYAML ?? "")
    }

    /// The template's project.
    func document() throws(ProjectError) -> Document {
        switch project {
        case .json(let root, let source): Document(root: root, source: source, format: .json)
        case .yaml(let text): try DocumentLoader.load(text: text, name: RenderOrder.yamlName, format: .yaml)
        }
    }
}

/// A template as the API shows it: `{ name, created_at, updated_at, project }` (the project as
/// stored: a JSON value, or YAML text under `project_yaml`).
struct TemplateView: Encodable {
    var name: String
    var createdAt: String
    var updatedAt: String
    var project: AnyJSON?
    var projectYAML: String?

    private enum CodingKeys: String, CodingKey {
        case name, createdAt = "created_at", updatedAt = "updated_at", project, projectYAML = "project_yaml"
    }

    private struct Stored: Decodable {
        var project: AnyJSON?
        var projectYAML: String?

        private enum CodingKeys: String, CodingKey {
            case project, projectYAML = "project_yaml"
        }
    }

    init(_ template: TemplateRecord) {
        let stored = try? JSONDecoder().decode(Stored.self, from: Data(template.body.utf8))
        (name, createdAt, updatedAt) = (template.name, RenderView.time(template.createdAt), RenderView.time(template.updatedAt))
        (project, projectYAML) = (stored?.project, stored?.projectYAML)
    }
}
