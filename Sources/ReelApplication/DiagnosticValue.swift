import ProjectFile

/// A diagnostic as a value for JSON (`reel plan --json`, an HTTP answer): where (file, line,
/// column, path in the document), how bad, what, and what to do.
public struct DiagnosticValue: Codable, Equatable, Sendable {
    public var file: String
    public var line: Int
    public var column: Int
    public var path: String
    /// `error`, `warning` or `note`.
    public var severity: String
    public var message: String
    public var hint: String?

    public init(_ d: Diagnostic) {
        (file, line, column, path) = (d.location.file, d.location.line, d.location.column, d.path)
        (severity, message, hint) = (d.severity.rawValue, d.message, d.hint)
    }
}
