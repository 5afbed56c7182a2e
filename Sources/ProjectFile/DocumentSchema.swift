import JSONSchema

/// A JSON Schema for loaded documents: `Schema` over `Node`, with failures (and the problems
/// of a broken schema) as `Diagnostic`s at file:line:col.
///
///     let schema = try DocumentSchema.bundled()        // Schemas/reel.schema.json
///     let problems = schema.validate(document.root)    // [Diagnostic], in source order
public struct DocumentSchema: Sendable {
    private let schema: Schema<Node>

    /// Compiles `schema` (see `Schema.init`); a malformed schema or a `$ref` that cannot be
    /// resolved is an invalid-project error pointing into the schema.
    public init(_ schema: Node, baseURI: String = "urn:reel:schema", remote: @escaping (String) -> Node? = { _ in nil }) throws(ProjectError) {
        do {
            self.schema = try Schema(schema, baseURI: baseURI, remote: remote)
        } catch {
            throw ProjectError(.invalidProject, diagnostics: error.problems.map(Diagnostic.init))
        }
    }

    /// Every failure in `node`, each once, in source order (empty when it is valid).
    public func validate(_ node: Node) -> [Diagnostic] { check(node).diagnostics }

    /// `validate`, with the paths of the values that fail (an unknown key is no failing value:
    /// it is ignored by the reader, so its object stays readable). Removing those values
    /// (`Node.removing`) leaves a document whose other parts can be checked further.
    public func check(_ node: Node) -> (diagnostics: [Diagnostic], invalidPaths: Set<String>) {
        let failures = schema.validate(node)
        // Deduplicated again: a rewritten hint can make two failures the same diagnostic.
        var seen = Set<Diagnostic>()
        let diagnostics = Diagnostic.sorted(failures.map(Diagnostic.init).filter { seen.insert($0).inserted })
        return (diagnostics, Set(failures.filter { $0.unknownKey == nil }.map(\.path)))
    }
}

extension Diagnostic {
    /// A schema failure as an error. A `<<` key that reached the schema (quoted in YAML, or in
    /// JSON, where it does not merge) gets a hint about merge keys rather than the list of
    /// allowed keys; a peer's key (`length`, `src`) Reel's key or way (`PeerKeys`).
    init(_ failure: SchemaFailure<SourceLocation>) {
        var message = failure.message, hint = failure.hint
        var keys = failure.meantKey.map { KeyRelation.unknown(meant: $0) } ?? failure.missingKey.map { KeyRelation.missing([$0]) }
        if failure.unknownKey == "<<" {
            hint = "'<<' merges a mapping only unquoted in a YAML file (<<: *anchor); in JSON, write the keys out"
            keys = .unread
        } else if let key = failure.unknownKey, let answer = PeerKeys.answer(for: key, at: failure.path) {
            if let reels = answer.key {
                if !message.contains("did you mean") { message += "; did you mean '\(reels)'?" }
                keys = .unknown(meant: reels)
            } else {
                keys = .unread
            }
            hint = answer.hint
        }
        self.init(location: failure.location, path: failure.path, message: message, hint: hint, keys: keys)
    }
}
