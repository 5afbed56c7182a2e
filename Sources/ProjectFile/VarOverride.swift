/// A value for one var given outside the project, with where it was given: `--set`,
/// `vars.yaml:3:8`, `rows.csv:6:22`. Diagnostics about the value point there.
public struct VarOverride: Sendable {
    public var name: String
    public var input: VarInput
    public var location: SourceLocation

    public init(name: String, input: VarInput, location: SourceLocation) {
        self.name = name
        self.input = input
        self.location = location
    }

    /// The text given, or a scalar value's text; nil for null, lists and mappings.
    public var text: String? {
        switch input {
        case .text(let text): return text
        case .value(let value): return value.scalarText
        }
    }

    /// The value as the user wrote it, for messages.
    var displayValue: String {
        switch input {
        case .text(let text): return text
        case .value(let value): return Node(value, at: location).excerpt
        }
    }

    /// One override per member of a JSON or YAML object (a `--vars` file, a JSON batch row),
    /// each located at its value; nil when `node` is not an object.
    public static func members(of node: Node) -> [VarOverride]? {
        guard case .object(let members) = node.value else { return nil }
        return members.map { VarOverride(name: $0.key, input: .value($0.value.value), location: $0.value.location) }
    }

    /// The values of a `--vars FILE` (a JSON or YAML object of name → value), with the file's
    /// text for quoting it in diagnostics.
    public static func load(file path: String) throws(ProjectError) -> (overrides: [VarOverride], source: SourceText) {
        let document = try DocumentLoader.load(path: path)
        guard let overrides = members(of: document.root) else {
            throw ProjectError(.invalidProject, Diagnostic(location: document.root.location, path: "",
                                                           message: "a vars file holds a mapping of var names to values; this one holds \(document.root.excerpt)",
                                                           hint: "write, for example, {\"headline\": \"Summer Sale\", \"price\": 9.99}"),
                               source: document.source)
        }
        return (overrides, document.source)
    }

    /// The JSON text of a vars file that `load(file:)` reads back as these scalar values (a
    /// list or a mapping is written as null).
    public static func varsFileText(_ values: [(name: String, value: Node.Value)]) -> String {
        func json(_ value: Node.Value) -> String {
            switch value {
            case .string(let s): jsonStringLiteral(s)
            case .number(let n): n
            case .bool(let b): String(b)
            case .null, .array, .object: "null"
            }
        }
        return "{" + values.map { jsonStringLiteral($0.name) + ": " + json($0.value) }.joined(separator: ", ") + "}\n"
    }
}

extension Node.Value {
    /// The text of a string, number or boolean; nil for null, lists and mappings.
    public var scalarText: String? {
        switch self {
        case .string(let s), .number(let s): s
        case .bool(let b): String(b)
        default: nil
        }
    }
}
