import JSONSchema
import MediaTime

/// A value given for a var from outside the project.
public enum VarInput: Sendable {
    /// Text to be typed: by the var's declared type, or by the YAML 1.2 core scalar rules for
    /// an untyped var (`--set`, a CSV cell).
    case text(String)
    /// A value that is already typed (a JSON or YAML file).
    case value(Node.Value)
}

extension VarDeclaration {
    /// The value `input` gives this var, typed and checked against the declared type and
    /// limits; nil (with a diagnostic at `location`, where the value came from) when it does
    /// not fit.
    func accept(_ input: VarInput, at location: SourceLocation, problems: inout [Diagnostic]) -> Node.Value? {
        func reject(_ message: String) -> Node.Value? {
            problems.append(Diagnostic(location: location, path: path, message: message,
                                       hint: description.map { "\(name): \($0)" }))
            return nil
        }
        let got: String
        switch input {
        case .text(let text): got = "'\(text)'"
        case .value(let value): got = Self.describe(value)
        }
        guard let type else {
            switch input {
            case .text(let text): return VarsSubstitution.typedValue(text)
            case .value(let value):
                switch value {
                case .array, .object, .null: return reject("var '\(name)' takes a string, a number or a boolean; got \(got)")
                default: return value
                }
            }
        }
        guard let value = typed(input, as: type) else { return reject("var '\(name)' expects \(expected(type)); got \(got)") }
        switch (type, value) {
        case (.string, .string(let text)), (.path, .string(let text)):
            if type == .path, text.allSatisfy(\.isWhitespace) { return reject("var '\(name)' expects a file path; got empty text") }
            if let maxLength, text.count > maxLength {
                return reject("var '\(name)' takes at most \(maxLength) characters; got \(text.count) (\(got))")
            }
            if let minLength, text.count < minLength {
                return reject("var '\(name)' takes at least \(minLength) character\(minLength == 1 ? "" : "s"); got \(text.count) (\(got))")
            }
        case (.color, _):
            switch Self.colorSchema {
            case .success(let schema):
                guard schema.validate(Node(value, at: location)).isEmpty else { return reject("var '\(name)' expects \(expected(type)); got \(got)") }
            case .failure(let error):
                return reject("colour var '\(name)' cannot be checked: the bundled schema is unusable (\(error.diagnostics.first?.message ?? ""))")
            }
        case (.number, .number(let text)):
            if let problem = boundProblem(DecimalNumber(text), got: got, bound: boundNumber) { return reject(problem) }
        case (.time, .number(let text)), (.time, .string(let text)):
            let time: MediaTime
            do {
                time = try TimeNotation.parse(text, fps: fps)
            } catch {
                return reject("var '\(name)': \(error.message)")
            }
            if let problem = boundProblem(time.value, got: got, bound: boundSeconds) { return reject(problem) }
        default:
            break
        }
        return value
    }

    /// The input as a value of the type's JSON kind, or nil when it has none.
    private func typed(_ input: VarInput, as type: VarType) -> Node.Value? {
        switch (type, input) {
        case (.string, .text(let text)), (.path, .text(let text)), (.color, .text(let text)):
            return .string(text)
        case (.string, .value(let value)), (.path, .value(let value)):
            switch value {
            case .string: return value
            case .number(let n): return .string(n)
            case .bool(let b): return .string(String(b))
            default: return nil
            }
        case (.number, .text(let text)):
            if case .number(let n) = CoreSchemaScalar.resolve(text) { return .number(n) }
            return nil
        case (.boolean, .text(let text)):
            if case .bool(let b) = CoreSchemaScalar.resolve(text) { return .bool(b) }
            return nil
        case (.time, .text(let text)):
            if case .number(let n) = CoreSchemaScalar.resolve(text) { return .number(n) }
            return .string(text)
        case (.color, .value(let value)):
            if case .string = value { return value }
            return nil
        case (.number, .value(let value)):
            if case .number = value { return value }
            return nil
        case (.boolean, .value(let value)):
            if case .bool = value { return value }
            return nil
        case (.time, .value(let value)):
            switch value {
            case .number, .string: return value
            default: return nil
            }
        }
    }

    /// "must be at least …" when `value` is outside the var's bounds.
    private func boundProblem<T: Comparable>(_ value: T?, got: String, bound: (Node) -> T?) -> String? {
        guard let value else { return nil }
        let unit = type == .time ? " s" : ""
        if let minimum, let low = bound(minimum), value < low { return "var '\(name)' must be at least \(minimum.excerpt)\(unit); got \(got)" }
        if let maximum, let high = bound(maximum), high < value { return "var '\(name)' must be at most \(maximum.excerpt)\(unit); got \(got)" }
        return nil
    }

    /// The default as written, when it is a number (the example a message gives).
    private var numericDefault: String? {
        if case .number(let text)? = defaultValue?.value { return text }
        return nil
    }

    private func expected(_ type: VarType) -> String {
        switch type {
        case .string: "text"
        case .number: "a number such as \(numericDefault ?? "9.99")"
        case .color: ##"a colour: "#rgb", "#rgba", "#rrggbb", "#rrggbbaa" or black, white, transparent, red, green, blue, yellow, gray"##
        case .path: "a file path (text, relative to the project)"
        case .time: TimeNotation.help
        case .boolean: "true or false"
        }
    }

    /// How a typed value reads in a message: `the text "9.99"`, `the number 12`, `a list of 2`.
    private static func describe(_ value: Node.Value) -> String {
        let node = Node(value, at: .commandLine(""))
        switch value {
        case .string: return "the text \(node.excerpt)"
        case .number: return "the number \(node.excerpt)"
        default: return node.excerpt
        }
    }

    /// The schema's `$defs/color`, so a colour var accepts exactly what a colour field does.
    private static let colorSchema = Result { () throws(ProjectError) -> DocumentSchema in
        let schema = try DocumentSchema.bundledSchemaNode()
        let id = schema["$id"]?.stringValue ?? "urn:reel:schema"
        let reference = try DocumentLoader.load(text: #"{"$ref": "\#(id)#/$defs/color"}"#, name: "color", format: .json).root
        return try DocumentSchema(reference, remote: { $0 == id ? schema : nil })
    }
}
