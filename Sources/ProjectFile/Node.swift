import JSONSchema

/// A place in a project file: 1-based line and column (columns count Unicode scalars).
/// Line 0 means a value with no place in a file, such as a command-line option.
public struct SourceLocation: Hashable, Sendable, CustomStringConvertible {
    public var file: String
    public var line: Int
    public var column: Int

    public init(file: String, line: Int, column: Int) {
        self.file = file
        self.line = line
        self.column = column
    }

    /// A value given outside any file, named `what` (`--set`).
    public static func commandLine(_ what: String) -> SourceLocation { SourceLocation(file: what, line: 0, column: 0) }

    public var description: String { line > 0 ? "\(file):\(line):\(column)" : file }
}

/// One node of a loaded YAML or JSON document, with where it came from.
///
/// YAML is resolved with the YAML 1.2 core schema (so `on`, `yes` and `01:02` stay strings);
/// JSON loads into the same tree. The schema validator, vars substitution and the typed
/// project all work on this tree, so every message can point at a line and column.
/// As a `JSONInstance`, it is what `Schema` validates (with `subscript(key:)`, `stringValue`
/// and `excerpt` from there).
public struct Node: JSONInstance {
    /// `null`, `bool`, `number` (the text as written), `string`, `array([Node])`, `object([Member])`.
    public typealias Value = JSONValue<Node>

    public struct Member: JSONMember {
        public var key: String
        public var keyLocation: SourceLocation
        public var value: Node

        public init(key: String, keyLocation: SourceLocation, value: Node) {
            self.key = key
            self.keyLocation = keyLocation
            self.value = value
        }
    }

    public var value: Value
    public var location: SourceLocation

    public init(_ value: Value, at location: SourceLocation) {
        self.value = value
        self.location = location
    }
}

extension Node {
    /// This tree without the values at `paths` (`DocumentPath`s): a member is left out, an
    /// array element becomes `null` (so later elements keep their index). Nil when the root
    /// itself is among them.
    public func removing(_ paths: Set<String>) -> Node? {
        guard !paths.isEmpty else { return self }
        func visit(_ node: Node, _ path: String) -> Node? {
            if paths.contains(path) { return nil }
            switch node.value {
            case .object(let members):
                let kept = members.compactMap { m -> Member? in
                    visit(m.value, DocumentPath.appending(key: m.key, to: path)).map { Member(key: m.key, keyLocation: m.keyLocation, value: $0) }
                }
                return Node(.object(kept), at: node.location)
            case .array(let items):
                let kept = items.enumerated().map { i, item in
                    visit(item, DocumentPath.appending(index: i, to: path)) ?? Node(.null, at: item.location)
                }
                return Node(.array(kept), at: node.location)
            default:
                return node
            }
        }
        return visit(self, DocumentPath.root)
    }
}

extension Node {
    /// The member named `key` of an object. (`JSONInstance` has it too; this one needs no
    /// generic dispatch, and the decoder asks it for every value of a project.)
    public subscript(key: String) -> Node? {
        guard case .object(let members) = value else { return nil }
        for member in members where member.key == key { return member.value }
        return nil
    }
}
