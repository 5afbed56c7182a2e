import Foundation
import MediaFormat
import ProjectFile
import RenderEngine

/// A request body whose top-level fields are known: any other is refused at its place, with the
/// list of those it takes.
protocol PostedBody: Decodable {
    static var fields: [String] { get }
}

extension PostedDecoder {
    /// `text`, the body posted, as a `T`, with the document it was read from. Throws
    /// `ProjectError` (`.usage`) at the place of what is wrong.
    static func body<T: PostedBody>(_ type: T.Type, from text: String) throws(ProjectError) -> (body: T, document: Document) {
        let document: Document
        do {
            document = try DocumentLoader.load(text: text, name: RenderOrder.bodyName, format: .json)
        } catch {
            var malformed = error
            malformed.category = .usage // the request is not JSON: no project to find fault with yet
            throw malformed
        }
        guard case .object(let members) = document.root.value else {
            throw ProjectError(.usage, Diagnostic(location: document.root.location, path: "",
                                                  message: "the request body is \(document.root.excerpt), not a JSON object"), source: document.source)
        }
        if let unknown = members.first(where: { !T.fields.contains($0.key) }) {
            throw ProjectError(.usage, Diagnostic(location: unknown.value.location, path: "", message: "unknown field \"\(unknown.key)\"",
                                                  hint: "the fields are " + T.fields.sorted().joined(separator: ", ")), source: document.source)
        }
        return (try decode(T.self, from: document), document)
    }
}

/// What a render takes beside its project, the same for `POST /v1/renders`, a template's
/// renders and a batch (where each row gives the vars): what `--set`, `--rendition`, `--preset`
/// and the output's extension give `reel render`, the webhook that tells of its end, and the
/// client's own `metadata`, echoed with the render.
struct RenderSettings: Codable, Sendable {
    var vars: PostedVars?
    var rendition: String?
    var format: OutputFormat?
    var preset: PresetName?
    var webhook: Webhook?
    var metadata: AnyJSON?

    static let fields = ["vars", "rendition", "format", "preset", "webhook", "metadata"]

    var overrides: [VarOverride] { vars?.overrides ?? [] }
    /// The output's container: mp4 unless `format` says.
    var container: Container { format?.container ?? .mp4 }
}

/// `vars`: an object of var names and values, each value with its place in what was posted.
struct PostedVars: Codable, Sendable {
    var overrides: [VarOverride]

    init(_ overrides: [VarOverride]) { self.overrides = overrides }

    init(from decoder: any Decoder) throws {
        let node = try PostedNode(from: decoder).node
        guard let members = VarOverride.members(of: node) else { throw FieldProblem("vars is \(node.excerpt), not an object of name: value") }
        overrides = members
    }

    func encode(to encoder: any Encoder) throws {
        var object = encoder.singleValueContainer()
        try object.encode(Dictionary(overrides.map { value in
            switch value.input {
            case .text(let text): (value.name, AnyJSON.string(text))
            case .value(let v): (value.name, AnyJSON(v))
            }
        }) { $1 })
    }
}

/// `format`: the container of one file (`mp4`, `webm`, `m4a`…; not an image sequence).
struct OutputFormat: Codable, Sendable {
    var container: Container

    init(from decoder: any Decoder) throws {
        let name = try decoder.singleValueContainer().decode(String.self)
        guard let container = Container(fileExtension: name), !container.isImageSequence else {
            throw FieldProblem("format \(name) is not an output the service writes (one file)",
                               hint: "one of " + Container.allCases.filter { !$0.isImageSequence }.map(\.rawValue).joined(separator: ", "))
        }
        self.container = container
    }

    func encode(to encoder: any Encoder) throws {
        var value = encoder.singleValueContainer()
        try value.encode(container.rawValue)
    }
}

/// `preset`: one of `reel render --preset`'s.
struct PresetName: Codable, Sendable {
    var preset: ExportPreset

    init(from decoder: any Decoder) throws {
        let name = try decoder.singleValueContainer().decode(String.self)
        guard let preset = ExportPreset(rawValue: name) else {
            throw FieldProblem("preset \(name) is not a preset", hint: "one of " + ExportPreset.allCases.map(\.rawValue).joined(separator: ", "))
        }
        self.preset = preset
    }

    func encode(to encoder: any Encoder) throws {
        var value = encoder.singleValueContainer()
        try value.encode(preset.rawValue)
    }
}

/// `webhook`: where the render's end is posted, and the secret its deliveries are signed with.
/// One that is not an object is a malformed request (400); a url or secret that cannot be used a
/// 422, at its place.
struct Webhook: Codable, Equatable, Sendable {
    var url: String
    var secret: String

    init(from decoder: any Decoder) throws {
        let fields = try decoder.container(keyedBy: CodingKeys.self)
        url = try fields.decode(URL.self, forKey: .url).text
        secret = try fields.decode(Secret.self, forKey: .secret).text
    }

    /// `url`: `http(s)://HOST[:PORT]…`.
    private struct URL: Decodable {
        var text: String

        init(from decoder: any Decoder) throws {
            guard let text = try? decoder.singleValueContainer().decode(String.self) else {
                throw FieldProblem("a webhook needs a url, http:// or https://", category: .invalidProject)
            }
            if let problem = Webhook.problem(url: text) {
                throw FieldProblem("the webhook's url \(problem)", hint: "give the receiver's URL: https://HOST/PATH", category: .invalidProject)
            }
            self.text = text
        }
    }

    /// `secret`: at least 16 bytes.
    private struct Secret: Decodable {
        var text: String

        init(from decoder: any Decoder) throws {
            guard let text = try? decoder.singleValueContainer().decode(String.self), text.utf8.count >= 16 else {
                throw FieldProblem("a webhook needs a secret of at least 16 characters, to sign its deliveries with", category: .invalidProject)
            }
            self.text = text
        }
    }

    /// What keeps `url` from being a webhook's (`is not …`), nil for `http(s)://HOST[:PORT]…`:
    /// any other scheme, no host (`http://`, `http:///x`, `http://user@`), a port out of range,
    /// spaces or control characters (curl would refuse each at the first delivery). The problem
    /// never quotes the URL, which may hold credentials.
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
