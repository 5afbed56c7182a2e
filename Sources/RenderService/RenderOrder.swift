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

        /// What keeps `url` from being a webhook's (`is not …`), nil for `http(s)://HOST[:PORT]…`:
        /// any other scheme, no host (`http://`, `http:///x`, `http://user@`), a port out of
        /// range, spaces or control characters (curl would refuse each at the first delivery).
        /// The problem never quotes the URL, which may hold credentials.
        static func problem(url: String) -> String? {
            guard !url.unicodeScalars.contains(where: { $0.properties.isWhitespace || $0.properties.generalCategory == .control }) else {
                return "holds a space or a control character"
            }
            guard let parts = URLComponents(string: url), let scheme = parts.scheme?.lowercased(), url.dropFirst(scheme.count).hasPrefix("://") else {
                return "is not a URL of the form http(s)://HOST/PATH"
            }
            guard scheme == "http" || scheme == "https" else { return "is a \(scheme): URL; webhooks are delivered to http:// and https:// URLs" }
            guard let host = parts.percentEncodedHost, !host.isEmpty else { return "names no host" }
            if let port = parts.port, !(1...65535).contains(port) { return "has port \(port), not one from 1 to 65535" }
            return nil
        }
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

    /// `{"url": "http(s)://HOST…", "secret": "…"}`: a webhook that is not an object is a malformed
    /// request (400); a url or secret that cannot be used, a value the request cannot be taken
    /// with (422), each at its place.
    private static func webhook(_ node: Node?, _ refuse: (Node?, String, String?) -> ProjectError) throws(ProjectError) -> Webhook? {
        guard let node else { return nil }
        guard case .object = node.value else { throw refuse(node, "webhook is \(node.excerpt), not {\"url\": …, \"secret\": …}", nil) }
        func unusable(_ member: String, _ message: String, hint: String? = nil) -> ProjectError {
            var error = refuse(node[member] ?? node, message, hint)
            error.category = .invalidProject
            error.diagnostics = error.diagnostics.map { var d = $0; d.path = "webhook." + member; return d }
            return error
        }
        guard case .string(let url)? = node["url"]?.value else { throw unusable("url", "a webhook needs a url, http:// or https://") }
        if let problem = Webhook.problem(url: url) { throw unusable("url", "the webhook's url \(problem)", hint: "give the receiver's URL: https://HOST/PATH") }
        guard case .string(let secret)? = node["secret"]?.value, secret.utf8.count >= 16 else {
            throw unusable("secret", "a webhook needs a secret of at least 16 characters, to sign its deliveries with")
        }
        return Webhook(url: url, secret: secret)
    }

    /// The client's `metadata`, as posted (any JSON), echoed with the render.
    static func metadata(of body: String) -> Any? {
        (try? JSONSerialization.jsonObject(with: Data(body.utf8)) as? [String: Any])?["metadata"]
    }
}
