import Foundation

/// A JSON Schema (draft 2020-12) compiled for validating `Node` trees.
///
///     let schema = try JSONSchema(JSONSchema.bundledSchemaNode())
///     let problems = schema.validate(document.root)   // [Diagnostic], in source order
///
/// Implements the assertion and applicator keywords (type, enum, const, numeric and string
/// bounds, pattern, object and array keywords, allOf/anyOf/oneOf/not, if/then/else,
/// dependentRequired/dependentSchemas, unevaluatedProperties/Items) with `$ref`,
/// `$dynamicRef`, `$id`, `$anchor` and `$defs`. `format` and the meta-data keywords are
/// annotations only. Numbers compare exactly on their decimal text.
public struct JSONSchema: Sendable {
    private let root: CompiledSchema
    private let evaluator: SchemaEvaluator

    /// Compiles `schema`. `baseURI` names the document when it has no `$id`; `remote`
    /// supplies other documents by absolute URI (without fragment) for `$ref`s that leave
    /// this one. Throws when the schema itself is malformed or a `$ref` cannot be resolved.
    public init(_ schema: Node, baseURI: String = "urn:reel:schema", remote: @escaping (String) -> Node? = { _ in nil }) throws(ProjectError) {
        let registry = SchemaRegistry(remote: remote)
        root = registry.addDocument(schema, uri: baseURI)
        registry.compileAllDynamicAnchors()
        registry.checkInPlaceCycles()
        guard registry.errors.isEmpty else { throw ProjectError(.invalidProject, diagnostics: registry.errors) }
        evaluator = SchemaEvaluator(dynamicAnchors: registry.dynamicAnchors)
    }

    /// Every failure in `node`, in source order (empty when it is valid).
    public func validate(_ node: Node) -> [Diagnostic] {
        let outcome = evaluator.evaluate(root, node, path: DocumentPath.root, depth: 0, scope: [])
        var seen = Set<Diagnostic>()
        return Diagnostic.sorted(outcome.failures.map(\.diagnostic).filter { seen.insert($0).inserted })
    }

    /// `Schemas/reel.schema.json`, bundled with this module.
    public static func bundledSchemaNode() throws(ProjectError) -> Node {
        guard let url = Bundle.module.url(forResource: "reel.schema", withExtension: "json") else {
            throw ProjectError(.missingFile, Diagnostic(location: SourceLocation(file: "reel.schema.json", line: 1, column: 1), path: "",
                                                        message: "the bundled schema reel.schema.json is missing from the ProjectFile resources"))
        }
        return try DocumentLoader.load(path: url.path).root
    }

    /// The bundled project schema, compiled once per process.
    public static func bundled() throws(ProjectError) -> JSONSchema {
        try compiledBundle.get()
    }

    private static let compiledBundle = Result { () throws(ProjectError) in try JSONSchema(bundledSchemaNode()) }
}
