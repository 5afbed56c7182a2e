import MediaTime
import ProjectFile

/// Typed reads of a validated document: the schema has already checked shapes, so these
/// return nil on a shape mismatch (already reported) and report only what the schema
/// cannot know (a time that does not parse at this frame rate, a bad colour).
struct NodeCursor {
    let node: Node
    let path: String

    init(_ node: Node, path: String) {
        self.node = node
        self.path = path
    }

    var origin: Origin { Origin(location: node.location, path: path) }

    subscript(key: String) -> NodeCursor? {
        node[key].map { NodeCursor($0, path: path.isEmpty ? key : "\(path).\(key)") }
    }

    var elements: [NodeCursor] {
        guard case .array(let items) = node.value else { return [] }
        return items.enumerated().map { NodeCursor($1, path: "\(path)[\($0)]") }
    }

    /// Object members in document order.
    var members: [(key: String, value: NodeCursor)] {
        guard case .object(let members) = node.value else { return [] }
        return members.map { ($0.key, NodeCursor($0.value, path: path.isEmpty ? $0.key : "\(path).\($0.key)")) }
    }

    var string: String? {
        if case .string(let s) = node.value { return s }
        return nil
    }

    var bool: Bool? {
        if case .bool(let b) = node.value { return b }
        return nil
    }

    /// The number exactly as written (decimal or integer); nil for exponents or non-numbers.
    var rational: Rational? {
        if case .number(let text) = node.value {
            // An exponent (1e3) is read to a millionth; a number beyond Int64 microunits is no rational.
            return Rational(exactly: text) ?? double.flatMap { Int64(exactly: ($0 * 1_000_000).rounded()) }.map { Rational($0, 1_000_000) }
        }
        return nil
    }

    var double: Double? {
        if case .number(let text) = node.value { return Double(text) }
        return nil
    }

    var int: Int? {
        if case .number(let text) = node.value { return Int(text) }
        return nil
    }

    /// Text of a scalar, whatever its type (for times written as numbers or strings).
    var scalarText: String? {
        switch node.value {
        case .string(let s), .number(let s): return s
        default: return nil
        }
    }
}

/// Collects the problems found after schema validation, each at a place in the file.
struct Problems {
    private(set) var diagnostics: [Diagnostic] = []

    /// Records a problem once (a value read twice, like the x and y of a position, is one problem).
    /// `missing`: the keys of the object at `origin` that would have prevented it, had one been given.
    mutating func report(_ message: String, at origin: Origin, hint: String? = nil, missing: Set<String>? = nil) {
        let diagnostic = Diagnostic(location: origin.location, path: origin.path, message: message, hint: hint, keys: missing.map { .missing($0) })
        if !diagnostics.contains(diagnostic) { diagnostics.append(diagnostic) }
    }

    /// Records something that renders but is probably not what was meant (exit 0 unless `--strict`).
    mutating func warn(_ message: String, at origin: Origin, hint: String? = nil) {
        let diagnostic = Diagnostic(severity: .warning, location: origin.location, path: origin.path, message: message, hint: hint)
        if !diagnostics.contains(diagnostic) { diagnostics.append(diagnostic) }
    }

    var errors: [Diagnostic] { diagnostics.filter { $0.severity == .error } }

    mutating func append(contentsOf other: [Diagnostic]) { diagnostics += other }
}
