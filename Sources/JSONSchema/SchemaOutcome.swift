/// What evaluating one schema against one value found: failures, and the annotations that
/// `unevaluatedProperties` / `unevaluatedItems` consume (kept only from passing subschemas).
struct SchemaOutcome<Location: Hashable & Sendable> {
    /// One failed assertion; `kind` and `depth` let `anyOf`/`oneOf` pick the closest branch.
    struct Failure {
        enum Kind { case type, const, required, other }
        let kind: Kind
        /// Depth of the failing value in the document (0 = root).
        let depth: Int
        let failure: SchemaFailure<Location>
    }

    var failures: [Failure] = []
    var evaluatedProperties = Set<String>()
    /// Items `0..<evaluatedPrefix` were evaluated (`prefixItems`, `items`).
    var evaluatedPrefix = 0
    var evaluatedIndices = Set<Int>()

    var isValid: Bool { failures.isEmpty }

    /// Adds a subschema's outcome: its failures always, its annotations when it passed.
    mutating func merge(_ other: SchemaOutcome) {
        failures += other.failures
        if other.isValid { mergeAnnotations(other) }
    }

    mutating func mergeAnnotations(_ other: SchemaOutcome) {
        evaluatedProperties.formUnion(other.evaluatedProperties)
        evaluatedPrefix = max(evaluatedPrefix, other.evaluatedPrefix)
        evaluatedIndices.formUnion(other.evaluatedIndices)
    }
}
