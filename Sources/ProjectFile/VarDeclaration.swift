import JSONSchema
import MediaTime

/// One entry of a project's `vars:` block: a bare default (`headline: Spring Sale`) or a
/// declaration `{type, default, description, min_length, max_length, minimum, maximum}`.
///
/// A typed var's default and every value given for it (`--set`, `--vars`, a batch row) are
/// checked against its type and limits by `accept(_:at:)`; an untyped var takes any scalar.
public struct VarDeclaration: Sendable {
    public enum VarType: String, Sendable, CaseIterable {
        case string, number, color, path, time, boolean
    }

    public let name: String
    public let type: VarType?
    /// nil when the var has no default: then a value must be given wherever it is used.
    public let defaultValue: Node?
    public let description: String?
    /// Shortest and longest text allowed, in characters (string and path vars).
    public let minLength: Int?
    public let maxLength: Int?
    /// Bounds as written (number and time vars; a time's bounds are seconds).
    public let minimum: Node?
    public let maximum: Node?
    /// Where the var's name is written.
    public let location: SourceLocation
    /// Frame rate for frame-based time values (`12f`, SMPTE): the project's `output.fps`.
    let fps: Rational

    /// Reads one `vars:` member; the problems are those of the declaration itself (limits that
    /// do not fit the type, a default of the wrong type). `fps` is the project's frame rate.
    static func read(_ member: Node.Member, fps: Rational) -> (VarDeclaration, [Diagnostic]) {
        let entry = member.value
        let isDeclaration: Bool
        if case .object = entry.value { isDeclaration = true } else { isDeclaration = false }
        func number(_ key: String) -> Node? {
            guard isDeclaration, let node = entry[key], case .number = node.value else { return nil }
            return node
        }
        func length(_ key: String) -> Int? {
            guard let node = number(key), case .number(let text) = node.value else { return nil }
            return Int(text)
        }
        let declaration = VarDeclaration(
            name: member.key,
            type: isDeclaration ? entry["type"]?.stringValue.flatMap(VarType.init(rawValue:)) : nil,
            defaultValue: isDeclaration ? entry["default"] : entry,
            description: isDeclaration ? entry["description"]?.stringValue : nil,
            minLength: length("min_length"), maxLength: length("max_length"), minimum: number("minimum"), maximum: number("maximum"),
            location: member.keyLocation, fps: fps)
        return (declaration, declaration.limitProblems())
    }

    private init(name: String, type: VarType?, defaultValue: Node?, description: String?, minLength: Int?, maxLength: Int?,
                 minimum: Node?, maximum: Node?, location: SourceLocation, fps: Rational) {
        self.name = name
        self.type = type
        self.defaultValue = defaultValue
        self.description = description
        self.minLength = minLength
        self.maxLength = maxLength
        self.minimum = minimum
        self.maximum = maximum
        self.location = location
        self.fps = fps
    }

    var path: String { DocumentPath.appending(key: name, to: "vars") }

    /// Limits that the var's type cannot have, and a minimum above the maximum.
    private func limitProblems() -> [Diagnostic] {
        var problems: [Diagnostic] = []
        let typeName = type.map { "a \($0.rawValue) var" } ?? "an untyped var"
        for (key, limit) in [("min_length", minLength), ("max_length", maxLength)] where limit != nil && type != .string && type != .path {
            problems.append(Diagnostic(location: location, path: path, message: "var '\(name)' has \(key), but it is \(typeName)",
                                       hint: "\(key) applies to type: string and type: path"))
        }
        if let minLength, let maxLength, minLength > maxLength {
            problems.append(Diagnostic(location: location, path: path, message: "var '\(name)' has min_length \(minLength) above its max_length \(maxLength)"))
        }
        for bound in [minimum, maximum].compactMap({ $0 }) {
            guard type == .number || type == .time else {
                problems.append(Diagnostic(location: bound.location, path: path,
                                           message: "var '\(name)' has a minimum or maximum, but it is \(typeName)",
                                           hint: "minimum and maximum apply to type: number and type: time (in seconds)"))
                break
            }
            if type == .time, boundSeconds(bound) == nil {
                problems.append(Diagnostic(location: bound.location, path: path,
                                           message: "the bound \(bound.excerpt) of time var '\(name)' must be plain seconds",
                                           hint: "write it as a decimal number such as 2.5"))
            }
        }
        if let low = minimum.flatMap(boundNumber), let high = maximum.flatMap(boundNumber), high < low {
            problems.append(Diagnostic(location: maximum!.location, path: path,
                                       message: "var '\(name)' has a maximum (\(maximum!.excerpt)) below its minimum (\(minimum!.excerpt))"))
        }
        return problems
    }

    func boundNumber(_ bound: Node) -> DecimalNumber? {
        guard case .number(let text) = bound.value else { return nil }
        return DecimalNumber(text)
    }

    func boundSeconds(_ bound: Node) -> Rational? {
        guard case .number(let text) = bound.value else { return nil }
        return Rational(exactly: text)
    }
}
