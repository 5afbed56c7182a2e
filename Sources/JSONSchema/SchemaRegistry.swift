import Foundation

/// Finds schema resources by URI (`$id`, `$anchor`, `$dynamicAnchor`, JSON pointers),
/// compiles schema nodes into `CompiledSchema`s and links every `$ref` up front, so a
/// missing target is a schema error when the schema is loaded, not a surprise later.
final class SchemaRegistry<Instance: JSONInstance> {
    typealias Location = Instance.Location
    typealias Compiled = CompiledSchema<Instance>

    /// A schema resource: the node that carries `$id` (or a document root) and its URI.
    private struct Resource {
        let node: Instance
        let base: String
    }

    private var resources: [String: Resource] = [:]
    /// `base#anchor` → the anchored node and its base URI.
    private var anchors: [String: Resource] = [:]
    /// Resource base → dynamic anchor names it declares.
    private(set) var dynamicAnchors: [String: [String: Compiled]] = [:]
    private var compiled: [String: Compiled] = [:]
    /// Every compiled schema once, in the order compiled (document order, then the targets
    /// of `$ref`s into other documents), for a deterministic walk.
    private var compiledInOrder: [Compiled] = []
    private var pendingLinks: [Compiled] = []
    /// Whether any schema reads annotations (`unevaluatedProperties`, `unevaluatedItems`);
    /// when none does, evaluation need not collect them.
    var readsAnnotations: Bool { compiledInOrder.contains { $0.needsAnnotations } }
    private let remote: (String) -> Instance?
    private(set) var errors: [SchemaFailure<Location>] = []
    /// False when the document's meta-schema (`$schema`) leaves out the validation vocabulary.
    private var validationVocabulary = true

    init(remote: @escaping (String) -> Instance?) {
        self.remote = remote
    }

    /// Registers a whole document and returns its compiled root.
    func addDocument(_ node: Instance, uri: String) -> Compiled {
        validationVocabulary = Self.usesValidationVocabulary(node, remote: remote)
        discover(node, base: uri, isRoot: true)
        let root = compile(node, base: effectiveBase(node, uri), key: effectiveBase(node, uri) + "#")
        link()
        return root
    }

    /// Reads `$vocabulary` from the meta-schema named by `$schema`, when it can be fetched;
    /// the standard meta-schemas (and unknown ones) keep every vocabulary on.
    private static func usesValidationVocabulary(_ node: Instance, remote: (String) -> Instance?) -> Bool {
        guard let metaURI = node["$schema"]?.stringValue, let meta = remote(URIReference.splitFragment(metaURI).0),
              let vocabularies = meta["$vocabulary"] else { return true }
        return vocabularies["https://json-schema.org/draft/2020-12/vocab/validation"] != nil
    }

    // MARK: Discovery of identifiers

    private func effectiveBase(_ node: Instance, _ base: String) -> String {
        if case .string(let id)? = node["$id"]?.value { return URIReference.splitFragment(URIReference.resolve(id, against: base)).0 }
        return base
    }

    /// Walks subschema keywords, registering `$id` resources and anchors.
    private func discover(_ node: Instance, base: String, isRoot: Bool) {
        guard case .object(let members) = node.value else { return }
        let newBase = effectiveBase(node, base)
        if isRoot || newBase != base { resources[newBase] = Resource(node: node, base: newBase) }
        if isRoot, resources[base] == nil { resources[base] = Resource(node: node, base: newBase) }
        if case .string(let anchor)? = node["$anchor"]?.value { anchors[newBase + "#" + anchor] = Resource(node: node, base: newBase) }
        if case .string(let anchor)? = node["$dynamicAnchor"]?.value { anchors[newBase + "#" + anchor] = Resource(node: node, base: newBase) }
        for member in members {
            switch member.key {
            case "$defs", "definitions", "properties", "patternProperties", "dependentSchemas":
                if case .object(let children) = member.value.value { children.forEach { discover($0.value, base: newBase, isRoot: false) } }
            case "allOf", "anyOf", "oneOf", "prefixItems":
                if case .array(let children) = member.value.value { children.forEach { discover($0, base: newBase, isRoot: false) } }
            case "items", "additionalProperties", "unevaluatedProperties", "unevaluatedItems", "contains", "propertyNames",
                 "not", "if", "then", "else":
                discover(member.value, base: newBase, isRoot: false)
            default: break
            }
        }
    }

    // MARK: Compiling

    private func compile(_ node: Instance, base: String, key: String) -> Compiled {
        if let done = compiled[key] { return done }
        let base = effectiveBase(node, base)
        let schema = Compiled(base: base, location: node.location)
        compiled[key] = schema
        compiledInOrder.append(schema)
        if base != URIReference.splitFragment(key).0 { compiled[base + "#"] = schema }
        switch node.value {
        case .bool(let value):
            schema.boolean = value
            return schema
        case .object:
            break
        default:
            fail(node, "a schema must be an object or a boolean, found \(node.excerpt)")
            schema.boolean = true
            return schema
        }
        let pointerBase = URIReference.splitFragment(key)
        let pointer = base == pointerBase.0 ? (pointerBase.1 ?? "") : ""
        func sub(_ child: Instance, _ tokens: String...) -> Compiled {
            compile(child, base: base, key: base + "#" + pointer + tokens.map { "/" + Self.escape($0) }.joined())
        }
        for member in node.objectMembers where validationVocabulary || !validationKeywords.contains(member.key) {
            let value = member.value
            switch member.key {
            case "title": schema.title = value.stringValue
            case "description": schema.description = value.stringValue
            case "type":
                if let single = value.stringValue { schema.types = [single] }
                else { schema.types = value.arrayItems.compactMap(\.stringValue) }
            case "enum": schema.enumValues = value.arrayItems
            case "x-aliases":
                for member in value.objectMembers { if let name = member.value.stringValue { schema.aliases[Suggestion.spelling(member.key)] = name } }
            case "const": schema.constValue = value
            case "minimum": schema.minimum = bound(value)
            case "maximum": schema.maximum = bound(value)
            case "exclusiveMinimum": schema.exclusiveMinimum = bound(value)
            case "exclusiveMaximum": schema.exclusiveMaximum = bound(value)
            case "multipleOf": schema.multipleOf = bound(value)
            case "minLength": schema.minLength = count(value)
            case "maxLength": schema.maxLength = count(value)
            case "pattern": schema.pattern = pattern(value)
            case "properties":
                schema.properties = value.objectMembers.map { ($0.key, sub($0.value, "properties", $0.key)) }
                schema.propertySchemas = Dictionary(schema.properties.map { ($0.name, $0.schema) }, uniquingKeysWith: { first, _ in first })
            case "patternProperties":
                schema.patternProperties = value.objectMembers.compactMap { member in
                    guard let p = pattern(Instance(.string(member.key), at: member.keyLocation)) else { return nil }
                    return (p, sub(member.value, "patternProperties", member.key))
                }
            case "additionalProperties": schema.additionalProperties = sub(value, "additionalProperties")
            case "propertyNames": schema.propertyNames = sub(value, "propertyNames")
            case "required": schema.required = value.arrayItems.compactMap(\.stringValue)
            case "minProperties": schema.minProperties = count(value)
            case "maxProperties": schema.maxProperties = count(value)
            case "dependentRequired":
                schema.dependentRequired = value.objectMembers.map { ($0.key, $0.value.arrayItems.compactMap(\.stringValue)) }
            case "dependentSchemas":
                schema.dependentSchemas = value.objectMembers.map { ($0.key, sub($0.value, "dependentSchemas", $0.key)) }
            case "unevaluatedProperties": schema.unevaluatedProperties = sub(value, "unevaluatedProperties")
            case "prefixItems":
                schema.prefixItems = value.arrayItems.enumerated().map { sub($1, "prefixItems", String($0)) }
            case "items": schema.items = sub(value, "items")
            case "contains": schema.contains = sub(value, "contains")
            case "minContains": schema.minContains = count(value)
            case "maxContains": schema.maxContains = count(value)
            case "minItems": schema.minItems = count(value)
            case "maxItems": schema.maxItems = count(value)
            case "uniqueItems": schema.uniqueItems = value.boolValue ?? false
            case "unevaluatedItems": schema.unevaluatedItems = sub(value, "unevaluatedItems")
            case "allOf": schema.allOf = value.arrayItems.enumerated().map { sub($1, "allOf", String($0)) }
            case "anyOf": schema.anyOf = value.arrayItems.enumerated().map { sub($1, "anyOf", String($0)) }
            case "oneOf": schema.oneOf = value.arrayItems.enumerated().map { sub($1, "oneOf", String($0)) }
            case "not": schema.not = sub(value, "not")
            case "if": schema.ifSchema = sub(value, "if")
            case "then": schema.thenSchema = sub(value, "then")
            case "else": schema.elseSchema = sub(value, "else")
            case "$ref": schema.ref = value.stringValue.map { URIReference.resolve($0, against: base) }
            case "$dynamicRef": schema.dynamicRef = value.stringValue.map { URIReference.resolve($0, against: base) }
            case "$dynamicAnchor":
                if let name = value.stringValue {
                    schema.dynamicAnchor = name
                    dynamicAnchors[base, default: [:]][name] = schema
                }
            case "$defs", "definitions":
                // Compiled so their dynamic anchors are known; reached through `$ref`.
                for def in value.objectMembers { _ = sub(def.value, member.key, def.key) }
            default: break
            }
        }
        if schema.ref != nil || schema.dynamicRef != nil { pendingLinks.append(schema) }
        return schema
    }

    private func link() {
        while let schema = pendingLinks.popLast() {
            if let ref = schema.ref { schema.refTarget = lookup(ref, from: schema) }
            if let ref = schema.dynamicRef { schema.dynamicRefTarget = lookup(ref, from: schema) }
        }
    }

    /// Reports `$ref` loops that never move into the document (`a: {$ref: b}`, `b: {allOf: [{$ref: a}]}`):
    /// evaluating them would recurse forever on the same value.
    func checkInPlaceCycles() {
        var marks: [ObjectIdentifier: VisitMark] = [:]
        var reported = false
        func inPlace(_ schema: Compiled) -> [Compiled] {
            [schema.refTarget, schema.dynamicRefTarget, schema.not, schema.ifSchema, schema.thenSchema, schema.elseSchema].compactMap { $0 }
                + schema.allOf + schema.anyOf + schema.oneOf + schema.dependentSchemas.map(\.schema)
        }
        func visit(_ schema: Compiled) {
            let id = ObjectIdentifier(schema)
            switch marks[id] {
            case .done: return
            case .active:
                if !reported { failAt(schema.location, "a $ref loop that never moves into the document (it would recurse forever)") }
                reported = true
                return
            case nil:
                marks[id] = .active
                inPlace(schema).forEach(visit)
                marks[id] = .done
            }
        }
        compiledInOrder.forEach(visit)
    }

    /// Compiles the dynamic anchors of every known resource (so `$dynamicRef` can jump there).
    func compileAllDynamicAnchors() {
        for (key, resource) in anchors where resource.node["$dynamicAnchor"] != nil {
            _ = compile(resource.node, base: resource.base, key: key)
        }
        link()
    }

    private func lookup(_ uri: String, from schema: Compiled) -> Compiled? {
        let (base, fragment) = URIReference.splitFragment(uri)
        if resources[base] == nil, let document = remote(base) {
            discover(document, base: base, isRoot: true)
            _ = compile(document, base: effectiveBase(document, base), key: effectiveBase(document, base) + "#")
            compileAllDynamicAnchors()
        }
        guard let resource = resources[base] else {
            failAt(schema.location, "cannot resolve $ref '\(uri)': no schema has that URI")
            return nil
        }
        let fragmentText = (fragment ?? "").removingPercentEncoding ?? (fragment ?? "")
        if fragmentText.isEmpty {
            return compile(resource.node, base: resource.base, key: resource.base + "#")
        }
        if fragmentText.hasPrefix("/") {
            var node = resource.node
            var nodeBase = resource.base
            var pointer = ""
            for token in fragmentText.dropFirst().split(separator: "/", omittingEmptySubsequences: false) {
                let name = token.replacingOccurrences(of: "~1", with: "/").replacingOccurrences(of: "~0", with: "~")
                let next: Instance?
                switch node.value {
                case .object: next = node[name]
                case .array(let items): next = Int(name).flatMap { items.indices.contains($0) ? items[$0] : nil }
                default: next = nil
                }
                guard let next else {
                    failAt(schema.location, "cannot resolve $ref '\(uri)': nothing at '\(fragmentText)'")
                    return nil
                }
                node = next
                pointer += "/" + Self.escape(name)
                let childBase = effectiveBase(node, nodeBase)
                if childBase != nodeBase { nodeBase = childBase; pointer = "" }
            }
            return compile(node, base: nodeBase, key: nodeBase + "#" + pointer)
        }
        guard let anchored = anchors[base + "#" + fragmentText] else {
            failAt(schema.location, "cannot resolve $ref '\(uri)': no $anchor '\(fragmentText)'")
            return nil
        }
        return compile(anchored.node, base: anchored.base, key: base + "#" + fragmentText)
    }

    // MARK: Keyword values

    private func bound(_ node: Instance) -> Compiled.Bound? {
        guard case .number(let text) = node.value, let number = DecimalNumber(text) else {
            fail(node, "expected a number, found \(node.excerpt)")
            return nil
        }
        return Compiled.Bound(number: number, text: text)
    }

    private func count(_ node: Instance) -> Int? {
        guard case .number(let text) = node.value, let number = DecimalNumber(text), number.isInteger, !number.isNegative else {
            fail(node, "expected a non-negative integer, found \(node.excerpt)")
            return nil
        }
        return Int(exactly: Double(text) ?? -1) ?? Int.max
    }

    private func pattern(_ node: Instance) -> Compiled.Pattern? {
        guard let source = node.stringValue else { fail(node, "a pattern must be a string"); return nil }
        do {
            return Compiled.Pattern(regex: try NSRegularExpression(pattern: ECMAPattern.icuPattern(source)), source: source)
        } catch {
            fail(node, "invalid regular expression '\(source)'")
            return nil
        }
    }

    private func fail(_ node: Instance, _ message: String) { failAt(node.location, message) }

    private func failAt(_ location: Location, _ message: String) {
        errors.append(SchemaFailure(location: location, path: "", message: "schema: " + message))
    }

    static func escape(_ token: String) -> String {
        token.replacingOccurrences(of: "~", with: "~0").replacingOccurrences(of: "/", with: "~1")
    }
}

/// A schema's state in the walk for `$ref` loops (a generic function cannot nest a type).
private enum VisitMark { case active, done }

/// Keywords of the 2020-12 validation vocabulary (a generic type cannot hold a static constant).
private let validationKeywords: Set<String> = [
    "type", "enum", "const", "multipleOf", "maximum", "exclusiveMaximum", "minimum", "exclusiveMinimum",
    "maxLength", "minLength", "pattern", "maxItems", "minItems", "uniqueItems", "maxContains", "minContains",
    "maxProperties", "minProperties", "required", "dependentRequired",
]
