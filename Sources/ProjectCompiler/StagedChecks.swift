import JSONSchema
import ProjectFile

/// The problems the pipeline's stages find, and the values they found invalid.
///
/// A stage that finds a value invalid reports it and removes it from the document it hands the
/// next stage, so later stages check what is left and one run reports every independent
/// problem. What a later stage finds in a part holding a removed value (the clip whose `from`
/// is invalid, the root) is a consequence, not a problem of its own: it is left out, and one
/// note says that those parts were not checked further.
struct StagedChecks {
    private(set) var found: [Diagnostic] = []
    private var invalid: [Diagnostic] = []
    private var skippedPart: Diagnostic?

    /// Adds problems that remove nothing.
    mutating func add(_ diagnostics: [Diagnostic]) {
        for d in diagnostics where !found.contains(d) { found.append(d) }
    }

    /// Adds a schema stage's problems and returns `root` without the values at `paths`; nil
    /// when the root itself is invalid, so no later stage can run. A problem in or around a
    /// value an earlier stage removed (`output` lacks the `fps` removed) is no problem of its own.
    mutating func add(_ diagnostics: [Diagnostic], invalid paths: Set<String>, in root: Node) -> Node? {
        let own = diagnostics.filter { cause(of: $0) == nil }
        add(own)
        invalid += own.filter { paths.contains($0.path) }
        return root.removing(paths)
    }

    /// Adds what a later stage found, leaving out what lies in or around a removed value.
    mutating func addDependent(_ diagnostics: [Diagnostic]) {
        for d in diagnostics {
            if let cause = cause(of: d) {
                if skippedPart == nil {
                    skippedPart = Diagnostic(severity: .note, location: cause.location, path: cause.path,
                                             message: "what holds this value was not checked further; fix it and validate again to see the rest")
                }
            } else {
                add([d])
            }
        }
        if let skippedPart { add([skippedPart]) }
    }

    /// The earlier problem whose removed value `d` lies in or around.
    private func cause(of d: Diagnostic) -> Diagnostic? {
        invalid.first { Self.overlaps(d.path, $0.path) }
    }

    /// Whether one path lies within the other (or they are one).
    static func overlaps(_ a: String, _ b: String) -> Bool {
        DocumentPath.isWithin(a, b) || DocumentPath.isWithin(b, a)
    }
}
