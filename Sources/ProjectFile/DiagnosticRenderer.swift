/// Renders diagnostics like a compiler:
///
///     project.yaml:27:9: error: unknown key 'fromm' in video[0].clips[0]; did you mean 'from'?
///        27 |         fromm: 1s
///           |         ^
///           = hint: allowed keys: at, crop, duration, ...
public struct DiagnosticRenderer: Sendable {
    private let sources: [String: SourceText]

    /// `sources` by name (`SourceText.name` equals `SourceLocation.file`); a diagnostic whose
    /// file is not among them is printed without the source line.
    public init(sources: [SourceText]) {
        var byName: [String: SourceText] = [:]
        for source in sources { byName[source.name] = source }
        self.sources = byName
    }

    /// All diagnostics in source order, each followed by its line, caret and hint.
    public func render(_ diagnostics: [Diagnostic]) -> String {
        Diagnostic.sorted(diagnostics).map(render).joined(separator: "\n")
    }

    public func render(_ diagnostic: Diagnostic) -> String {
        let location = diagnostic.location
        var out = "\(location): \(diagnostic.severity.rawValue): \(diagnostic.message)\n"
        let gutter = String(location.line)
        let pad = String(repeating: " ", count: location.line > 0 ? gutter.count : 0)
        if location.line > 0, let line = sources[location.file]?.line(location.line) {
            out += " \(gutter) | \(line)\n"
            out += " \(pad) | \(caretPrefix(line, column: location.column))^\n"
        }
        if let hint = diagnostic.hint {
            out += " \(pad) = hint: \(hint)\n"
        }
        return out
    }

    /// Spaces up to the column (counted in Unicode scalars), keeping tabs so the caret lines up.
    private func caretPrefix(_ line: Substring, column: Int) -> String {
        String(line.unicodeScalars.prefix(max(0, column - 1)).map { $0 == "\t" ? "\t" : " " })
    }
}
