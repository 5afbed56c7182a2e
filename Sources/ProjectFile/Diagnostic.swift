import JSONSchema

/// One problem found in a project file, with where it is.
public struct Diagnostic: Sendable, Hashable {
    public enum Severity: String, Sendable, Hashable {
        case error, warning, note

        var rank: Int {
            switch self {
            case .error: 0
            case .warning: 1
            case .note: 2
            }
        }
    }

    public var severity: Severity
    public var location: SourceLocation
    /// Path in the document, e.g. `video[0].clips[2].from` (empty for the document root).
    public var path: String
    public var message: String
    /// What to do about it, printed under the source line.
    public var hint: String?
    /// How the problem relates to a key of the object at `path`, so one mistake is said once
    /// (`StagedChecks`): a misspelt key and the value it leaves missing are one problem.
    public var keys: KeyRelation?

    public init(severity: Severity = .error, location: SourceLocation, path: String, message: String, hint: String? = nil,
                keys: KeyRelation? = nil) {
        self.severity = severity
        self.location = location
        self.path = path
        self.message = message
        self.hint = hint
        self.keys = keys
    }
}

/// What a diagnostic says about the keys of its object.
public enum KeyRelation: Sendable, Hashable {
    /// An unknown key, taken to be `meant` (its did-you-mean, or the peer's key Reel names).
    case unknown(meant: String)
    /// An unknown key that may have meant to give any key: a `<<` that merged nothing (quoted,
    /// or in JSON), a peer's key that Reel says another way.
    case unread
    /// A value the object lacks, which any of these keys would give.
    case missing(Set<String>)
}

extension Diagnostic {
    /// Source order: file, line, column, then errors before warnings before notes, then
    /// message, so output never depends on discovery order.
    public static func sorted(_ diagnostics: [Diagnostic]) -> [Diagnostic] {
        diagnostics.sorted {
            ($0.location.file, $0.location.line, $0.location.column, $0.severity.rank, $0.message)
                < ($1.location.file, $1.location.line, $1.location.column, $1.severity.rank, $1.message)
        }
    }
}
