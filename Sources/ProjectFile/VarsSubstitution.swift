import Foundation

/// `{{ name }}` substitution in the string scalars of a document, before schema validation.
///
/// A string that is exactly one reference takes the var's value with its type (so a var can
/// fill a number, a boolean, a colour or a path); a reference inside longer text is replaced
/// by the value's text. Values come from the project's `vars:` block (a scalar, or an object
/// with `default`), then from overrides given as text (`--set name=value`, or later one
/// row of a CSV file), which are typed with the YAML 1.2 core scalar rules (`25` is a
/// number, `true` a boolean, anything else a string).
///
///     var vars = VarsSubstitution(varsBlock: root["vars"])
///     let usage = vars.override(["headline": "Summer"], from: .commandLine("--set"))
///     let (substituted, problems) = vars.apply(to: root)
public struct VarsSubstitution: Sendable {
    /// Current value of every declared var; nil for a var declared without a default.
    public private(set) var values: [String: Node?] = [:]
    /// Problems in the `vars:` block itself.
    public private(set) var declarationProblems: [Diagnostic] = []

    public init(varsBlock: Node?) {
        guard let block = varsBlock, case .object(let members) = block.value else { return }
        for member in members {
            let path = DocumentPath.appending(key: member.key, to: "vars")
            var value: Node? = member.value
            if case .object = member.value.value { value = member.value["default"] }
            if let value, let text = Self.firstReference(in: value) {
                declarationProblems.append(Diagnostic(location: value.location, path: path,
                    message: "var '\(member.key)' refers to \(text); a var's value cannot use other vars",
                    hint: "write the value out in full"))
            }
            values[member.key] = .some(value)
        }
    }

    /// Sets vars from text values; returns a diagnostic (at `origin`) for each name that is
    /// not declared in `vars:`. `origin` is where the values came from: `.commandLine("--set")`,
    /// or the line of a CSV row. The values take that location too.
    public mutating func override(_ overrides: [String: String], from location: SourceLocation) -> [Diagnostic] {
        var problems: [Diagnostic] = []
        for name in overrides.keys.sorted() {
            let text = overrides[name]!
            guard values[name] != nil else {
                let close = SchemaMessages.suggestion(for: name, among: Array(values.keys)).map { "did you mean '\($0)'? " } ?? ""
                problems.append(Diagnostic(location: location, path: "vars",
                    message: "unknown var '\(name)' (given as \(name)=\(text))",
                    hint: close + knownVarsHint))
                continue
            }
            if text.contains("{{") {
                problems.append(Diagnostic(location: location, path: DocumentPath.appending(key: name, to: "vars"),
                    message: "the value given for var '\(name)' uses {{ }}; a var's value cannot use other vars"))
                continue
            }
            values[name] = .some(Node(Self.typedValue(text), at: location))
        }
        return problems
    }

    /// The document with every reference replaced (the top-level `vars:` block is left as it
    /// is), and a diagnostic for each unknown var, var without a value or misplaced list/mapping.
    public func apply(to root: Node) -> (node: Node, diagnostics: [Diagnostic]) {
        var problems = declarationProblems
        let node = substitute(root, path: DocumentPath.root, problems: &problems)
        return (node, problems)
    }

    private func substitute(_ node: Node, path: String, problems: inout [Diagnostic]) -> Node {
        switch node.value {
        case .string(let text):
            return substitute(text: text, at: node.location, path: path, problems: &problems) ?? node
        case .array(let items):
            var copy = node
            copy.value = .array(items.enumerated().map { substitute($1, path: DocumentPath.appending(index: $0, to: path), problems: &problems) })
            return copy
        case .object(let members):
            var copy = node
            copy.value = .object(members.map { member in
                if path.isEmpty && member.key == "vars" { return member }
                var m = member
                m.value = substitute(member.value, path: DocumentPath.appending(key: member.key, to: path), problems: &problems)
                return m
            })
            return copy
        default:
            return node
        }
    }

    /// nil when the text holds no reference.
    private func substitute(text: String, at location: SourceLocation, path: String, problems: inout [Diagnostic]) -> Node? {
        let references = Self.references(in: text)
        guard !references.isEmpty else { return nil }
        let here = DocumentPath.display(path)
        func value(of reference: Reference) -> Node? {
            guard let name = reference.name else {
                problems.append(Diagnostic(location: location, path: path, message: "'\(reference.text)' in \(here) is not a valid var reference",
                                           hint: "write {{ name }} with a name of letters, digits and _"))
                return nil
            }
            guard let declared = values[name] else {
                problems.append(Diagnostic(location: location, path: path, message: "unknown var '\(name)' in \(here)",
                                           hint: (SchemaMessages.suggestion(for: name, among: Array(values.keys)).map { "did you mean '\($0)'? " } ?? "") + knownVarsHint))
                return nil
            }
            guard let node = declared else {
                problems.append(Diagnostic(location: location, path: path, message: "var '\(name)' used in \(here) has no value",
                                           hint: "give it a default in vars: or pass --set \(name)=..."))
                return nil
            }
            return node
        }
        if references.count == 1, references[0].range == text.startIndex..<text.endIndex {
            guard let node = value(of: references[0]) else { return nil }
            return Node(node.value, at: location)
        }
        var result = ""
        var cursor = text.startIndex
        for reference in references {
            result += text[cursor..<reference.range.lowerBound]
            cursor = reference.range.upperBound
            guard let node = value(of: reference) else { continue }
            switch node.value {
            case .string(let s), .number(let s): result += s
            case .bool(let b): result += String(b)
            case .null: break
            case .array, .object:
                problems.append(Diagnostic(location: location, path: path,
                    message: "var '\(reference.name ?? "")' holds \(node.excerpt) and cannot be part of the text of \(here)"))
            }
        }
        result += text[cursor...]
        return Node(.string(result), at: location)
    }

    private var knownVarsHint: String {
        values.isEmpty ? "the project declares no vars; add them under vars:" : "known vars: " + values.keys.sorted().joined(separator: ", ")
    }

    /// Text typed as a YAML 1.2 plain scalar; empty text stays an empty string.
    static func typedValue(_ text: String) -> Node.Value {
        if text.isEmpty { return .string("") }
        switch CoreSchemaScalar.resolve(text) {
        case .null: return .null
        case .bool(let b): return .bool(b)
        case .number(let n): return .number(n)
        case .string, .nonFinite: return .string(text)
        }
    }

    struct Reference {
        let range: Range<String.Index>
        let text: String
        /// nil when what is between the braces is not a name.
        let name: String?
    }

    /// Every `{{ ... }}` in the text, in order.
    static func references(in text: String) -> [Reference] {
        var found: [Reference] = []
        var searchStart = text.startIndex
        while let open = text.range(of: "{{", range: searchStart..<text.endIndex),
              let close = text.range(of: "}}", range: open.upperBound..<text.endIndex) {
            let inner = text[open.upperBound..<close.lowerBound].trimmingCharacters(in: .whitespaces)
            let isName = inner.first.map { $0 == "_" || ($0.isASCII && $0.isLetter) } == true
                && inner.allSatisfy { $0 == "_" || ($0.isASCII && ($0.isLetter || $0.isNumber)) }
            found.append(Reference(range: open.lowerBound..<close.upperBound, text: String(text[open.lowerBound..<close.upperBound]),
                                   name: isName ? inner : nil))
            searchStart = close.upperBound
        }
        return found
    }

    private static func firstReference(in node: Node) -> String? {
        switch node.value {
        case .string(let s): return references(in: s).first?.text
        case .array(let items): return items.lazy.compactMap(firstReference).first
        case .object(let members): return members.lazy.compactMap { firstReference(in: $0.value) }.first
        default: return nil
        }
    }
}
