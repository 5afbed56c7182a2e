import Foundation
import MediaFormat
import ProjectFile
import RenderEngine

/// A render as a client posts it to `POST /v1/renders`:
/// `{ "project": {…} | "project_yaml": "…", "vars": {…}, "rendition": "…", "format": "mp4",
///    "preset": "…", "webhook": { "url": "…", "secret": "…" }, "metadata": {…} }`.
///
/// It is read from the body's text, so every problem points at its line and column in what was
/// posted: a project given as a JSON value keeps the body's positions, one given as YAML text its
/// own. The worker reads the stored body the same way, after a restart too.
struct RenderOrder {
    /// The project, named `request` (a JSON value in the body) or `project_yaml`: its relative
    /// paths are looked up in the service's media roots, never beside a file of that name.
    var document: Document
    var vars: [VarOverride]
    /// The request body, which the vars' locations point into.
    var body: SourceText
    var rendition: String?
    /// The output's container (from `format`, default mp4).
    var container: Container
    var preset: ExportPreset?
    var webhook: Webhook?

    struct Webhook: Equatable {
        var url: String
        var secret: String
    }

    /// The name diagnostics give the request body, and a project posted as YAML text.
    static let bodyName = "request", yamlName = "project_yaml"

    /// Reads `body`. Throws `ProjectError`
    /// (`.usage` for a malformed request, `.invalidProject` for a project that does not load).
    static func read(_ body: String) throws(ProjectError) -> RenderOrder {
        let request: Document
        do {
            request = try DocumentLoader.load(text: body, name: bodyName, format: .json)
        } catch {
            var malformed = error
            malformed.category = .usage // the request is not JSON: no project to find fault with yet
            throw malformed
        }
        let root = request.root
        func refuse(_ node: Node?, _ message: String, hint: String? = nil) -> ProjectError {
            ProjectError(.usage, Diagnostic(location: (node ?? root).location, path: "", message: message, hint: hint), source: request.source)
        }
        guard case .object(let members) = root.value else {
            throw refuse(root, "the request body is \(root.excerpt), not a JSON object", hint: "post {\"project\": {…}} or {\"project_yaml\": \"…\"}")
        }
        let known: Set = ["project", "project_yaml", "vars", "rendition", "format", "preset", "webhook", "metadata"]
        if let unknown = members.first(where: { !known.contains($0.key) }) {
            throw refuse(unknown.value, "unknown field \"\(unknown.key)\"", hint: "the fields are " + known.sorted().joined(separator: ", "))
        }
        let document: Document
        switch (root["project"], root["project_yaml"]) {
        case (let project?, nil):
            document = Document(root: project, source: SourceText(name: bodyName, text: body), format: .json)
        case (nil, let yaml?):
            guard case .string(let text) = yaml.value else { throw refuse(yaml, "project_yaml is \(yaml.excerpt), not a string of YAML text") }
            document = try DocumentLoader.load(text: text, name: yamlName, format: .yaml)
        case (_?, _?):
            throw refuse(root, "both project and project_yaml are given", hint: "post the project one way")
        case (nil, nil):
            throw refuse(root, "no project", hint: "post {\"project\": {…}} (a JSON value) or {\"project_yaml\": \"…\"} (YAML text)")
        }
        var vars: [VarOverride] = []
        if let given = root["vars"] {
            guard let members = VarOverride.members(of: given) else { throw refuse(given, "vars is \(given.excerpt), not an object of name: value") }
            vars = members
        }
        let container: Container
        switch root["format"]?.value {
        case nil: container = .mp4
        case .string(let name)?:
            guard let known = Container(fileExtension: name), !known.isImageSequence else {
                throw refuse(root["format"], "format \(name) is not an output the service writes (one file)",
                             hint: "one of " + Container.allCases.filter { !$0.isImageSequence }.map(\.rawValue).joined(separator: ", "))
            }
            container = known
        default: throw refuse(root["format"], "format is \(root["format"]?.excerpt ?? ""), not a name such as mp4")
        }
        var preset: ExportPreset?
        if let node = root["preset"] {
            guard case .string(let name) = node.value, let known = ExportPreset(rawValue: name) else {
                throw refuse(node, "preset \(node.excerpt) is not a preset", hint: "one of " + ExportPreset.allCases.map(\.rawValue).joined(separator: ", "))
            }
            preset = known
        }
        return RenderOrder(document: document, vars: vars, body: request.source, rendition: try string(root["rendition"], refuse),
                           container: container, preset: preset, webhook: try webhook(root["webhook"], refuse))
    }

    private static func string(_ node: Node?, _ refuse: (Node?, String, String?) -> ProjectError) throws(ProjectError) -> String? {
        guard let node else { return nil }
        guard case .string(let text) = node.value else { throw refuse(node, "\(node.excerpt) is not a string", nil) }
        return text
    }

    private static func webhook(_ node: Node?, _ refuse: (Node?, String, String?) -> ProjectError) throws(ProjectError) -> Webhook? {
        guard let node else { return nil }
        guard let url = try string(node["url"], refuse), url.hasPrefix("https://") || url.hasPrefix("http://") else {
            throw refuse(node["url"] ?? node, "a webhook needs a url, http:// or https://", nil)
        }
        guard let secret = try string(node["secret"], refuse), secret.utf8.count >= 16 else {
            throw refuse(node["secret"] ?? node, "a webhook needs a secret of at least 16 characters, to sign its deliveries with", nil)
        }
        return Webhook(url: url, secret: secret)
    }

    /// The client's `metadata`, as posted (any JSON), echoed with the render.
    static func metadata(of body: String) -> Any? {
        (try? JSONSerialization.jsonObject(with: Data(body.utf8)) as? [String: Any])?["metadata"]
    }
}
