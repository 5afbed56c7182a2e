import JSONSchema
import ProjectFile

/// The problems the pipeline's stages find, and the values they found invalid.
///
/// A stage that finds a value invalid reports it and removes it from the document it hands the
/// next stage, so later stages check what is left and one run reports every independent
/// problem. What a later stage finds in a part holding a removed value (the clip whose `from`
/// is invalid, the root) is a consequence, not a problem of its own: it is left out, and one
/// note says that those parts were not checked further.
///
/// A value missing because its key is misspelt (`durration: 5s` on a colour clip, which then
/// "needs a duration") is the misspelling's consequence too: it is said as a note under the
/// unknown key, not as an error of its own.
struct StagedChecks {
    private(set) var found: [Diagnostic] = []
    private var invalid: [Diagnostic] = []
    private var skippedPart: Diagnostic?
    /// The unknown key each missing value was said under.
    private var explainer: [Diagnostic: Diagnostic] = [:]

    /// Adds problems that remove nothing.
    mutating func add(_ diagnostics: [Diagnostic]) {
        let fresh = diagnostics.filter { !found.contains($0) }
        for d in fresh where !d.isMissingValue && !found.contains(d) { found.append(d) }
        for d in fresh where d.isMissingValue {
            var said = d
            if let cause = found.first(where: { $0.explains(d) }) {
                explainer[d] = cause
                said = cause.consequenceNote(d)
            }
            if !found.contains(said) { found.append(said) }
        }
    }

    /// Adds a schema stage's problems and returns `root` without the values at `paths`; nil
    /// when the root itself is invalid, so no later stage can run. A problem in or around a
    /// value an earlier stage removed (`output` lacks the `fps` removed) is no problem of its own.
    mutating func add(_ diagnostics: [Diagnostic], invalid paths: Set<String>, in root: Node) -> Node? {
        let own = diagnostics.filter { cause(of: $0) == nil }
        add(own)
        invalid += own.filter { paths.contains($0.path) }.map { explainer[$0] ?? $0 }
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

extension Diagnostic {
    /// Whether it says its object lacks a value some key would give.
    var isMissingValue: Bool {
        if case .missing = keys { return true }
        return false
    }

    /// Whether this unknown key is what leaves `missing`'s value out: a misspelling of one of
    /// the keys that would give it, or a `<<` that merged nothing, in the same object.
    func explains(_ missing: Diagnostic) -> Bool {
        guard path == missing.path, case .missing(let wanted)? = missing.keys else { return false }
        switch keys {
        case .unknown(let meant)?: return wanted.contains(meant)
        case .unread?: return true
        default: return false
        }
    }

    /// `missing` said under this unknown key, which causes it.
    func consequenceNote(_ missing: Diagnostic) -> Diagnostic {
        let unread = if case .unknown(let meant)? = keys {
            "unread, it leaves \(DocumentPath.display(path)) without '\(meant)'"
        } else {
            "what it says is not read"
        }
        return Diagnostic(severity: .note, location: location, path: path, message: "\(unread), so it also causes: \(missing.message)")
    }
}
