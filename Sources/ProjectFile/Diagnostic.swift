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

    public init(severity: Severity = .error, location: SourceLocation, path: String, message: String, hint: String? = nil) {
        self.severity = severity
        self.location = location
        self.path = path
        self.message = message
        self.hint = hint
    }
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
