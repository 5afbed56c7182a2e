import Foundation
import JSONSchema
import MediaTime

/// `{{ name }}` substitution in the string scalars of a document, before schema validation.
///
/// A string that is exactly one reference takes the var's value with its type (so a var can
/// fill a number, a boolean, a colour or a path); a reference inside longer text is replaced
/// by the value's text. Values come from the project's `vars:` block (a scalar, or a
/// declaration with `type` and `default`, see `VarDeclaration`), then from overrides
/// (`--set`, `--vars FILE`, a batch row). A typed var's default and overrides are checked
/// against its type; text given for an untyped var is typed with the YAML 1.2 core scalar
/// rules (`25` is a number, `true` a boolean, anything else a string).
///
///     var vars = VarsSubstitution(document: root)
///     let problems = vars.override([VarOverride(name: "headline", input: .text("Summer"), location: .commandLine("--set"))])
///     let (substituted, substitutionProblems) = vars.apply(to: root)
public struct VarsSubstitution: Sendable {
    /// Current value of every declared var; nil for a var declared without a default.
    public private(set) var values: [String: Node?] = [:]
    /// Problems in the `vars:` block itself.
    public private(set) var declarationProblems: [Diagnostic] = []
    private var declarations: [String: VarDeclaration] = [:]
    /// How `{{ v | number }}` writes numbers: the project's `locale` (nil: plain).
    private var numberLocale: NumberLocale?

    /// The declaration of var `name`, if the `vars:` block has it.
    public func declaration(_ name: String) -> VarDeclaration? { declarations[name] }

    /// Reads the `vars:` block of a document (and its `output.fps`, for frame-based time vars).
    public init(document root: Node) {
        if let node = root["locale"], let identifier = node.stringValue {
            numberLocale = NumberLocale(identifier: identifier)
            if numberLocale == nil {
                declarationProblems.append(Diagnostic(location: node.location, path: "locale",
                    message: "Reel does not know how '\(identifier)' writes numbers",
                    hint: "use a language Reel knows: \(NumberLocale.knownLanguages.joined(separator: ", ")) (with a region: de-DE)"))
            }
        }
        guard let block = root["vars"], case .object(let members) = block.value else { return }
        let fps = Self.frameRate(root) ?? Rational(30)
        for member in members {
            let (declaration, problems) = VarDeclaration.read(member, fps: fps)
            declarations[member.key] = declaration
            declarationProblems += problems
            guard let value = declaration.defaultValue else {
                values[member.key] = .some(nil)
                continue
            }
            if let text = Self.firstReference(in: value) {
                declarationProblems.append(Diagnostic(location: value.location, path: declaration.path,
                    message: "var '\(member.key)' refers to \(text); a var's value cannot use other vars",
                    hint: "write the value out in full"))
                values[member.key] = .some(value)
                continue
            }
            let typed = declaration.accept(.value(value.value), at: value.location, problems: &declarationProblems)
            values[member.key] = .some(Node(typed ?? value.value, at: value.location))
        }
    }

    /// Sets vars from values given outside the project; of several values for the same var
    /// the last one wins and only it is checked. Returns a diagnostic, at the value's
    /// location, for each name not declared in `vars:` and each value that does not fit.
    public mutating func override(_ overrides: [VarOverride]) -> [Diagnostic] {
        var problems: [Diagnostic] = []
        var last: [String: Int] = [:]
        for (index, given) in overrides.enumerated() { last[given.name] = index }
        for (index, given) in overrides.enumerated() where last[given.name] == index {
            let name = given.name
            guard let declaration = declarations[name] else {
                problems.append(Diagnostic(location: given.location, path: "vars",
                    message: "unknown var '\(name)' (given as \(name)=\(given.displayValue))",
                    hint: unknownVarHint(name)))
                continue
            }
            if given.text?.contains("\u{0}") == true {
                // A NUL cannot reach a child render's command line (C strings end there) nor a
                // project file (refused when loading): the value would not be the one checked.
                problems.append(Diagnostic(location: given.location, path: declaration.path,
                    message: "the value given for var '\(name)' holds a NUL character"))
                continue
            }
            if given.text?.contains("{{") == true {
                problems.append(Diagnostic(location: given.location, path: declaration.path,
                    message: "the value given for var '\(name)' uses {{ }}; a var's value cannot use other vars"))
                continue
            }
            if let value = declaration.accept(given.input, at: given.location, problems: &problems) {
                values[name] = .some(Node(value, at: given.location))
            }
        }
        return problems
    }

    /// `output.fps` when it is written as a number or a fraction (not as a var).
    private static func frameRate(_ root: Node) -> Rational? {
        switch root["output"]?["fps"]?.value {
        case .number(let text)?, .string(let text)?:
            guard let rate = Rational(exactly: text), !rate.isNegative, !rate.isZero else { return nil }
            return rate
        default:
            return nil
        }
    }

    /// The document with every reference replaced (the top-level `vars:` block is left as it
    /// is), and a diagnostic for each unknown var, var without a value or misplaced list/mapping.
    public func apply(to root: Node) -> (node: Node, diagnostics: [Diagnostic]) {
        let (node, diagnostics, _) = substitution(in: root)
        return (node, diagnostics)
    }

    /// `apply(to:)`, and whether any reference was replaced (when none was, `node` is `root`).
    public func substitution(in root: Node) -> (node: Node, diagnostics: [Diagnostic], changed: Bool) {
        var problems = declarationProblems
        var path = PathStack()
        let node = substitute(root, path: &path, problems: &problems)
        return (node ?? root, problems, node != nil)
    }

    /// nil when `node` holds no reference that was replaced (the tree is then not copied).
    private func substitute(_ node: Node, path: inout PathStack, problems: inout [Diagnostic]) -> Node? {
        switch node.value {
        case .string(let text):
            return substitute(text: text, at: node.location, path: { [path] in path.rendered }, problems: &problems)
        case .array(let items):
            var replaced: [Node]?
            for (index, item) in items.enumerated() {
                path.push(.index(index))
                defer { path.pop() }
                guard let new = substitute(item, path: &path, problems: &problems) else { continue }
                if replaced == nil { replaced = items }
                replaced![index] = new
            }
            return replaced.map { Node(.array($0), at: node.location) }
        case .object(let members):
            var replaced: [Node.Member]?
            for (index, member) in members.enumerated() where !(path.components.isEmpty && member.key == "vars") {
                path.push(.key(member.key))
                defer { path.pop() }
                guard let new = substitute(member.value, path: &path, problems: &problems) else { continue }
                if replaced == nil { replaced = members }
                replaced![index].value = new
            }
            return replaced.map { Node(.object($0), at: node.location) }
        default:
            return nil
        }
    }

    /// nil when the text holds no reference.
    private func substitute(text: String, at location: SourceLocation, path: () -> String, problems: inout [Diagnostic]) -> Node? {
        let references = Self.references(in: text)
        guard !references.isEmpty else { return nil }
        let path = path()
        let here = DocumentPath.display(path)
        // A string may use the same broken reference many times: one diagnostic is enough.
        var reported = Set<String>()
        func value(of reference: Reference) -> Node? {
            let before = problems.count
            let node = lookUp(reference)
            if problems.count > before, !reported.insert(reference.text.filter { !$0.isWhitespace }).inserted { problems.removeLast(problems.count - before) }
            return node
        }
        func lookUp(_ reference: Reference) -> Node? {
            if let problem = reference.filterProblem {
                problems.append(Diagnostic(location: location, path: path, message: "\(reference.text) in \(here): \(problem.message)", hint: problem.hint))
                return nil
            }
            guard let name = reference.name else {
                problems.append(Diagnostic(location: location, path: path, message: "'\(reference.text)' in \(here) is not a valid var reference",
                                           hint: "write {{ name }} with a name of letters, digits and _"))
                return nil
            }
            guard let declared = values[name] else {
                problems.append(Diagnostic(location: location, path: path, message: "unknown var '\(name)' in \(here)",
                                           hint: unknownVarHint(name)))
                return nil
            }
            guard let node = declared else {
                problems.append(Diagnostic(location: location, path: path, message: "var '\(name)' used in \(here) has no value",
                                           hint: "give it a default in vars:, or a value ('\(name)') when rendering"))
                return nil
            }
            return node
        }
        /// The reference's filters applied to `node`'s text (nil, with a problem, when one fails).
        func filtered(_ node: Node, _ reference: Reference) -> Node? {
            guard !reference.filters.isEmpty else { return node }
            guard var text = node.value.scalarText else {
                problems.append(Diagnostic(location: location, path: path,
                    message: "var '\(reference.name ?? "")' holds \(node.excerpt): its filters take text or a number"))
                return nil
            }
            for filter in reference.filters {
                switch filter.apply(to: text, locale: numberLocale) {
                case .success(let result): text = result
                case .failure(let problem):
                    problems.append(Diagnostic(location: location, path: path, message: "\(reference.text) in \(here): \(problem.message)", hint: problem.hint))
                    return nil
                }
            }
            return Node(.string(text), at: node.location)
        }
        if references.count == 1, references[0].range == text.startIndex..<text.endIndex {
            guard let node = value(of: references[0]).flatMap({ filtered($0, references[0]) }) else { return nil }
            return Node(node.value, at: location)
        }
        var result = ""
        var written = ""
        var cursor = text.startIndex
        let isPath = VarPathRule.isPathField(path)
        for reference in references {
            result += text[cursor..<reference.range.lowerBound]
            written += text[cursor..<reference.range.lowerBound] + "\u{1}"
            cursor = reference.range.upperBound
            guard let node = value(of: reference).flatMap({ filtered($0, reference) }) else { continue }
            if isPath, let scalar = node.value.scalarText, let problem = VarPathRule.problem(inside: scalar) {
                if reported.insert("path: " + (reference.name ?? "")).inserted {
                    problems.append(pathProblem(reference.name ?? "", scalar, problem, here, location, path))
                }
                continue
            }
            switch node.value {
            case .string(let s), .number(let s): result += s
            case .bool(let b): result += String(b)
            case .null: break
            case .array, .object:
                guard reported.insert("list or mapping: " + (reference.name ?? "")).inserted else { continue }
                problems.append(Diagnostic(location: location, path: path,
                    message: "var '\(reference.name ?? "")' holds \(node.excerpt) and cannot be part of the text of \(here)"))
            }
        }
        result += text[cursor...]
        written += text[cursor...]
        if isPath, let component = VarPathRule.madeComponent(result: result, template: written) {
            let names = Array(Set(references.compactMap(\.name))).sorted().map { "'\($0)'" }
            problems.append(Diagnostic(location: location, path: path,
                                       message: "var\(names.count > 1 ? "s" : "") \(names.joined(separator: ", ")) make\(names.count > 1 ? "" : "s") the path in \(here) '\(result)', with a '\(component)' component",
                                       hint: "a var inside a path names a file in the folder the project wrote; to let a var choose any file, make it the whole path"))
        }
        return Node(.string(result), at: location)
    }

    /// Each reference in `template` that can be filled in, with the text it is replaced with
    /// inside longer text (its filters applied), for a reader that must know which part of a
    /// substituted string a var brought in: a length expression takes it as one term. The
    /// references that cannot be filled in are left out (`apply` reports them).
    public func filledReferences(in template: String) -> [(reference: Reference, text: String)] {
        Self.references(in: template).compactMap { reference in
            guard reference.filterProblem == nil, let name = reference.name, let node = values[name] ?? nil,
                  var text = node.value.scalarText else { return nil }
            for filter in reference.filters {
                guard case .success(let result) = filter.apply(to: text, locale: numberLocale) else { return nil }
                text = result
            }
            return (reference, text)
        }
    }

    /// For an unknown var: the closest known name, then all of them.
    private func unknownVarHint(_ name: String) -> String {
        let suggestion = Suggestion.didYouMean(name, among: Array(values.keys)).map { $0 + " " } ?? ""
        return suggestion + (values.isEmpty ? "the project declares no vars; add them under vars:" : "known vars: " + values.keys.sorted().joined(separator: ", "))
    }

    private func pathProblem(_ name: String, _ value: String, _ problem: String, _ here: String, _ location: SourceLocation,
                             _ path: String) -> Diagnostic {
        Diagnostic(location: location, path: path,
                   message: "the value of var '\(name)' ('\(value.count > 60 ? value.prefix(57) + "…" : value)') \(problem), so it cannot be part of the path in \(here)",
                   hint: "a var inside a path names a file in the folder the project wrote; to let a var choose any file, make it the whole path: \"{{ \(name) }}\"")
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

    public struct Reference: Sendable {
        public let range: Range<String.Index>
        public let text: String
        /// nil when what is between the braces is not a name.
        public let name: String?
        /// After the name, `| number: 2`, `| slug`…, in order.
        public var filters: [VarFilter] = []
        /// What is wrong with a filter, when one cannot be read.
        public var filterProblem: VarFilter.FilterProblem?
    }

    /// Every `{{ ... }}` in the text, in order.
    public static func references(in text: String) -> [Reference] {
        guard text.utf8.contains(UInt8(ascii: "{")) else { return [] }
        var found: [Reference] = []
        var searchStart = text.startIndex
        while let open = text.range(of: "{{", range: searchStart..<text.endIndex),
              let close = text.range(of: "}}", range: open.upperBound..<text.endIndex) {
            let pieces = text[open.upperBound..<close.lowerBound].split(separator: "|", omittingEmptySubsequences: false)
            let inner = pieces[0].trimmingCharacters(in: .whitespaces)
            let isName = inner.first.map { $0 == "_" || ($0.isASCII && $0.isLetter) } == true
                && inner.allSatisfy { $0 == "_" || ($0.isASCII && ($0.isLetter || $0.isNumber)) }
            var reference = Reference(range: open.lowerBound..<close.upperBound, text: String(text[open.lowerBound..<close.upperBound]),
                                      name: isName ? inner : nil)
            for piece in pieces.dropFirst() {
                switch VarFilter.parse(piece) {
                case .success(let filter): reference.filters.append(filter)
                case .failure(let problem): reference.filterProblem = reference.filterProblem ?? problem
                }
            }
            found.append(reference)
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
