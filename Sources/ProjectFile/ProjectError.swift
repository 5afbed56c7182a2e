/// A run that cannot go on: one or many diagnostics and what kind of problem they are.
public struct ProjectError: Error, Sendable, CustomStringConvertible {
    public enum Category: Sendable {
        /// A value given from outside the project (a `--set`) is malformed.
        case usage
        /// The project (or a file it names) is invalid.
        case invalidProject
        /// A named file does not exist or cannot be read.
        case missingFile
        /// A named remote input could not be fetched now (a server error, a timeout, a cut
        /// connection): trying again later may work.
        case unavailable
        /// An output that may not be written: a file the run reads, or a file another output
        /// of the run writes too.
        case cannotWrite
        /// A remote input's fetch was stopped (Ctrl-C, SIGTERM).
        case cancelled
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

    /// Every diagnostic with its source line and caret.
    public var description: String { DiagnosticRenderer(sources: sources).render(diagnostics) }
}
