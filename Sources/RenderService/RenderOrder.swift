import Foundation
import MediaFormat
import ProjectFile
import RenderEngine

/// A render as the service checks and renders it: its project and its settings, read from what
/// was posted so every problem points at its line and column there. `POST /v1/renders` posts
/// both: `{ "project": {…} | "project_yaml": "…", "vars": {…}, "rendition": "…", "format": "mp4",
/// "preset": "…", "webhook": { "url": "…", "secret": "…" }, "metadata": {…} }`; a template's
/// render posts the settings alone and takes the template's project. The worker reads the
/// stored render the same way, after a restart too.
struct RenderOrder: Sendable {
    /// The project, named `request` (a JSON value in the body), `project_yaml`, or as its
    /// template is named: its relative paths are looked up in the service's media roots, never
    /// beside a file of that name.
    var document: Document
    var settings: RenderSettings
    /// The request body, which the vars' locations point into.
    var body: SourceText

    /// The name diagnostics give the request body, and a project posted as YAML text.
    static let bodyName = "request", yamlName = "project_yaml"

    /// A render of `template` with its vars' defaults and no settings: what a template is checked as.
    init(template: TemplateBody) throws(ProjectError) {
        document = try template.document()
        (settings, body) = (RenderSettings(), document.source)
    }

    private init(document: Document, settings: RenderSettings, body: SourceText) {
        (self.document, self.settings, self.body) = (document, settings, body)
    }

    /// `POST /v1/renders`'s body: the project and its settings.
    private struct Posted: PostedBody {
        var project: PostedNode?
        var projectYAML: String?
        var settings: RenderSettings

        static let fields = ["project", "project_yaml"] + RenderSettings.fields

        private enum CodingKeys: String, CodingKey {
            case project, projectYAML = "project_yaml"
        }

        init(from decoder: any Decoder) throws {
            let fields = try decoder.container(keyedBy: CodingKeys.self)
            project = try fields.decodeIfPresent(PostedNode.self, forKey: .project)
            projectYAML = try fields.decodeIfPresent(String.self, forKey: .projectYAML)
            settings = try RenderSettings(from: decoder)
        }
    }

    /// A template's render: its settings, and nothing of a project.
    private struct TemplateRender: PostedBody {
        var settings: RenderSettings

        static let fields = ["project", "project_yaml"] + RenderSettings.fields

        init(from decoder: any Decoder) throws {
            let project = try decoder.container(keyedBy: ProjectKey.self)
            if let given = project.allKeys.first {
                throw FieldProblem("a template render takes the template's project, not \(given.stringValue)", hint: "post the vars and settings only",
                                   at: try project.decode(PostedNode.self, forKey: given).node)
            }
            settings = try RenderSettings(from: decoder)
        }

        private enum ProjectKey: String, CodingKey {
            case project, projectYAML = "project_yaml"
        }
    }

    /// Reads `body`, a render posted with its project. Throws `ProjectError`: `.usage` for a
    /// malformed request, `.invalidProject` for a project that does not load.
    static func read(_ body: String) throws(ProjectError) -> RenderOrder {
        let (posted, request) = try PostedDecoder.body(Posted.self, from: body)
        func refusal(_ message: String, hint: String) -> ProjectError {
            ProjectError(.usage, Diagnostic(location: request.root.location, path: "", message: message, hint: hint), source: request.source)
        }
        let document: Document
        switch (posted.project?.node, posted.projectYAML) {
        case (let project?, nil):
            document = Document(root: project, source: request.source, format: .json)
        case (nil, let yaml?):
            document = try DocumentLoader.load(text: yaml, name: yamlName, format: .yaml)
        case (_?, _?):
            throw refusal("both project and project_yaml are given", hint: "post the project one way")
        case (nil, nil):
            throw refusal("no project", hint: "post {\"project\": {…}} (a JSON value) or {\"project_yaml\": \"…\"} (YAML text)")
        }
        return RenderOrder(document: document, settings: posted.settings, body: request.source)
    }

    /// Reads `body`, the settings posted for a render of `template`.
    static func read(_ body: String, template: TemplateBody) throws(ProjectError) -> RenderOrder {
        let (posted, request) = try PostedDecoder.body(TemplateRender.self, from: body)
        return RenderOrder(document: try template.document(), settings: posted.settings, body: request.source)
    }

    /// A render of a template with `settings` (a batch's row, with its vars), as the store keeps it.
    static func text(of settings: RenderSettings) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(settings), as: UTF8.self)
    }

    /// A stored render, as it was posted (of a template, with the template as it was then).
    static func read(_ render: RenderRecord) throws(ProjectError) -> RenderOrder {
        guard let name = render.templateName, let body = render.templateBody else { return try read(render.request) }
        return try read(render.request, template: try TemplateBody(body, name: TemplateBody.shownName(name)))
    }
}

/// The fields of a stored request that are read without checking it again: the webhook (for the
/// delivery) and the client's metadata (for every view of the render).
struct StoredFields: Decodable {
    var webhook: Webhook?
    var metadata: AnyJSON?

    private enum CodingKeys: String, CodingKey { case webhook, metadata }

    init(_ request: String) {
        self = (try? JSONDecoder().decode(Self.self, from: Data(request.utf8))) ?? StoredFields()
    }

    private init() {}

    init(from decoder: any Decoder) throws {
        let fields = try decoder.container(keyedBy: CodingKeys.self)
        webhook = try? fields.decodeIfPresent(Webhook.self, forKey: .webhook)
        metadata = try? fields.decodeIfPresent(AnyJSON.self, forKey: .metadata)
    }
}
