import Yams

/// Reads YAML through Yams into a `Node` tree, resolving scalars with the YAML 1.2 core
/// schema (`CoreSchemaScalar`): quoted scalars are strings, `yes`/`on`/`01:02` stay strings.
///
/// Limits: libyaml (as built in Yams) stops at 1000 nesting levels, so Yams' recursive
/// composer stays within ~1 MB of stack; this reader then enforces `maxDepth` with the exact
/// place, and counts nodes as aliases expand, so an alias bomb stops at `maxNodes`.
struct YAMLReader {
    private let text: String
    private let file: String
    private let limits: LoadLimits
    private var nodeCount = 0
    private var problems: [Diagnostic] = []

    init(text: String, file: String, limits: LoadLimits) {
        self.text = text
        self.file = file
        self.limits = limits
    }

    mutating func read() throws(LoadFailure) -> Node {
        let bytes = Array(text.utf8)
        var scan = YAMLKeyScan(bytes: bytes)
        if let complex = scan.firstComplexKey() {
            throw LoadFailure([Diagnostic(location: location(ofByte: complex.offset, in: bytes), path: "",
                                          message: complex.message, hint: "keys in a project file are plain names, like `from:`")])
        }
        let composed: Yams.Node?
        do {
            composed = try Yams.Parser(yaml: text, resolver: .basic, encoding: .utf8).singleRoot()
        } catch let error as YamlError {
            throw LoadFailure([diagnostic(from: error)])
        } catch {
            throw LoadFailure([Diagnostic(location: SourceLocation(file: file, line: 1, column: 1), path: "", message: "cannot read YAML: \(error)")])
        }
        guard let composed else {
            throw LoadFailure([Diagnostic(location: SourceLocation(file: file, line: 1, column: 1), path: "",
                                          message: "the file holds no YAML document (it is empty or only comments)")])
        }
        let root = try convert(composed, depth: 0, path: DocumentPath.root)
        guard problems.isEmpty else { throw LoadFailure(problems) }
        return root
    }

    private func location(_ mark: Mark?) -> SourceLocation {
        SourceLocation(file: file, line: mark?.line ?? 1, column: mark?.column ?? 1)
    }

    private func location(ofByte offset: Int, in bytes: [UInt8]) -> SourceLocation {
        var line = 1, column = 1, i = 0
        while i < offset {
            let b = bytes[i]
            if b == UInt8(ascii: "\n") || (b == UInt8(ascii: "\r") && (i + 1 >= bytes.count || bytes[i + 1] != UInt8(ascii: "\n"))) {
                line += 1; column = 1
            } else if b & 0xC0 != 0x80 && b != UInt8(ascii: "\r") {
                column += 1
            }
            i += 1
        }
        return SourceLocation(file: file, line: line, column: column)
    }

    private mutating func convert(_ node: Yams.Node, depth: Int, path: String) throws(LoadFailure) -> Node {
        nodeCount += 1
        switch node {
        case .scalar(let scalar):
            return try convert(scalar, path: path)
        case .alias(let alias):
            throw LoadFailure([Diagnostic(location: location(alias.mark), path: path, message: "unresolved YAML alias")])
        case .sequence(let sequence):
            try checkCollection(tag: sequence.tag.description, expected: "tag:yaml.org,2002:seq", mark: sequence.mark, depth: depth, path: path)
            var items: [Node] = []
            items.reserveCapacity(sequence.count)
            for (index, item) in sequence.enumerated() {
                items.append(try convert(item, depth: depth + 1, path: DocumentPath.appending(index: index, to: path)))
            }
            return Node(.array(items), at: location(sequence.mark))
        case .mapping(let mapping):
            try checkCollection(tag: mapping.tag.description, expected: "tag:yaml.org,2002:map", mark: mapping.mark, depth: depth, path: path)
            var members: [Node.Member] = []
            var seen: [String: SourceLocation] = [:]
            for (keyNode, valueNode) in mapping {
                guard case .scalar(let keyScalar) = keyNode else {
                    throw LoadFailure([Diagnostic(location: location(keyNode.mark), path: path, message: "a mapping key must be a plain name, not a list or mapping")])
                }
                let key = keyScalar.string
                let keyLocation = location(keyScalar.mark)
                let childPath = DocumentPath.appending(key: key, to: path)
                if let first = seen[key] {
                    problems.append(Diagnostic(location: keyLocation, path: childPath,
                                               message: "duplicate key '\(key)' in \(DocumentPath.display(path)) (first at line \(first.line), column \(first.column))",
                                               hint: "a key may appear only once in a mapping; remove or rename one of them"))
                    continue
                }
                seen[key] = keyLocation
                members.append(Node.Member(key: key, keyLocation: keyLocation, value: try convert(valueNode, depth: depth + 1, path: childPath)))
            }
            return Node(.object(members), at: location(mapping.mark))
        }
    }

    private func checkCollection(tag: String, expected: String, mark: Mark?, depth: Int, path: String) throws(LoadFailure) {
        if depth >= limits.maxDepth {
            throw LoadFailure([Diagnostic(location: location(mark), path: path, message: "nesting is deeper than \(limits.maxDepth) levels",
                                          hint: "a project file never needs this much nesting; is the file generated by mistake?")])
        }
        if nodeCount > limits.maxNodes {
            throw LoadFailure([Diagnostic(location: location(mark), path: path,
                                          message: "the document expands to more than \(limits.maxNodes) values",
                                          hint: "YAML aliases (*name) that repeat anchors within anchors multiply quickly; write the values out or use vars")])
        }
        guard tag.isEmpty || tag == expected || tag == "!" else {
            throw LoadFailure([Diagnostic(location: location(mark), path: path, message: "unsupported YAML tag '\(tag)'")])
        }
    }

    private mutating func convert(_ scalar: Yams.Node.Scalar, path: String) throws(LoadFailure) -> Node {
        let at = location(scalar.mark)
        let text = scalar.string
        let tag = scalar.tag.description
        func fail(_ message: String, hint: String? = nil) -> LoadFailure {
            LoadFailure([Diagnostic(location: at, path: path, message: message, hint: hint)])
        }
        let resolved: CoreSchemaScalar.Resolved
        switch tag {
        case "" where scalar.style == .plain || scalar.style == .any:
            resolved = CoreSchemaScalar.resolve(text)
        case "", "!", "tag:yaml.org,2002:str":
            resolved = .string(text)
        case "tag:yaml.org,2002:int", "tag:yaml.org,2002:float", "tag:yaml.org,2002:bool", "tag:yaml.org,2002:null":
            resolved = CoreSchemaScalar.resolve(text)
            let name = tag.split(separator: ":").last.map(String.init) ?? tag
            let matches: Bool
            switch resolved {
            case .number(let number): matches = name == "float" || (name == "int" && (DecimalNumber(number)?.isInteger ?? false))
            case .bool: matches = name == "bool"
            case .null: matches = name == "null"
            case .string, .nonFinite: matches = false
            }
            guard matches else { throw fail("'\(text)' is not a valid !!\(name)") }
        default:
            throw fail("unsupported YAML tag '\(tag)'", hint: "write the value without a tag; quote it to make it a string")
        }
        switch resolved {
        case .null: return Node(.null, at: at)
        case .bool(let value): return Node(.bool(value), at: at)
        case .number(let number): return Node(.number(number), at: at)
        case .string(let string): return Node(.string(string), at: at)
        case .nonFinite(let text):
            throw fail("'\(text)' is not a finite number; project files (like JSON) have no infinity or NaN", hint: "quote it if you mean the text \"\(text)\"")
        }
    }

    private func diagnostic(from error: YamlError) -> Diagnostic {
        switch error {
        case .scanner(let context, let problem, let mark, _), .parser(let context, let problem, let mark, _), .composer(let context, let problem, let mark, _):
            let message = context.map { "\(problem) (\($0.text) at line \($0.mark.line), column \($0.mark.column))" } ?? problem
            return Diagnostic(location: location(mark), path: "", message: "invalid YAML: \(message)")
        case .duplicatedKeysInMapping(let duplicates, let context):
            return Diagnostic(location: location(context.mark), path: "",
                              message: "duplicate key '\(duplicates.first ?? "")' in a mapping",
                              hint: "a key may appear only once in a mapping; remove or rename one of them")
        case .reader(let problem, _, _, _):
            return Diagnostic(location: SourceLocation(file: file, line: 1, column: 1), path: "", message: "cannot read the file as YAML: \(problem)")
        default:
            return Diagnostic(location: SourceLocation(file: file, line: 1, column: 1), path: "", message: "invalid YAML: \(error)")
        }
    }
}
