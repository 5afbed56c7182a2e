/// A run that cannot go on: one or many diagnostics and the exit code they call for.
public struct ProjectError: Error, Sendable, CustomStringConvertible {
    /// Exit codes from sysexits(3).
    public enum Category: Int32, Sendable {
        /// Bad command-line usage (EX_USAGE).
        case usage = 64
        /// The project (or a file it names) is invalid (EX_DATAERR).
        case invalidProject = 65
        /// A named file does not exist or cannot be read (EX_NOINPUT).
        case missingFile = 66
    }

    public var category: Category
    /// In source order.
    public var diagnostics: [Diagnostic]
    /// The texts the diagnostics point into, for rendering.
    public var sources: [SourceText]

    public init(_ category: Category, diagnostics: [Diagnostic], sources: [SourceText] = []) {
        self.category = category
        self.diagnostics = Diagnostic.sorted(diagnostics)
        self.sources = sources
    }

    public init(_ category: Category, _ diagnostic: Diagnostic, source: SourceText? = nil) {
        self.init(category, diagnostics: [diagnostic], sources: source.map { [$0] } ?? [])
    }

    public var exitCode: Int32 { category.rawValue }

    /// Every diagnostic with its source line and caret.
    public var description: String { DiagnosticRenderer(sources: sources).render(diagnostics) }
}
