/// A JSON Schema (draft 2020-12), compiled from one `JSONInstance` tree to validate others.
///
///     let schema = try Schema(schemaTree)
///     let failures = schema.validate(instanceTree)   // each with its location, path and message
///
/// Implements the assertion and applicator keywords (type, enum, const, numeric and string
/// bounds, pattern, object and array keywords, allOf/anyOf/oneOf/not, if/then/else,
/// dependentRequired/dependentSchemas, unevaluatedProperties/Items) with `$ref`,
/// `$dynamicRef`, `$id`, `$anchor` and `$defs`. `format` and the meta-data keywords are
/// annotations only. Numbers compare exactly on their decimal text.
public struct Schema<Instance: JSONInstance>: Sendable {
    private let root: CompiledSchema<Instance>
    /// Resource base → `$dynamicAnchor` name → schema.
    private let dynamicAnchors: [String: [String: CompiledSchema<Instance>]]
    private let readsAnnotations: Bool

    /// Compiles `schema`. `baseURI` names the document when it has no `$id`; `remote`
    /// supplies other documents by absolute URI (without fragment) for `$ref`s that leave
    /// this one. Throws when the schema itself is malformed or a `$ref` cannot be resolved.
    public init(_ schema: Instance, baseURI: String = "urn:schema", remote: @escaping (String) -> Instance? = { _ in nil })
        throws(InvalidSchema<Instance.Location>) {
        let registry = SchemaRegistry(remote: remote)
        root = registry.addDocument(schema, uri: baseURI)
        registry.compileAllDynamicAnchors()
        registry.checkInPlaceCycles()
        guard registry.errors.isEmpty else { throw InvalidSchema(problems: registry.errors) }
        dynamicAnchors = registry.dynamicAnchors
        readsAnnotations = registry.readsAnnotations
    }

    /// Every failure in `instance`, each once, in the order the schema meets them (empty when
    /// `instance` is valid).
    public func validate(_ instance: Instance) -> [SchemaFailure<Instance.Location>] {
        let outcome = SchemaEvaluator(dynamicAnchors: dynamicAnchors, readsAnnotations: readsAnnotations).evaluate(root, instance, depth: 0, scope: [])
        var seen = Set<SchemaFailure<Instance.Location>>()
        return outcome.failures.map(\.failure).filter { seen.insert($0).inserted }
    }
}
