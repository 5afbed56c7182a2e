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
        // A URL's credentials are not shown, in the message or in the quoted line.
        var out = "\(location): \(diagnostic.severity.rawValue): \(URLCredentials.redacted(diagnostic.message))\n"
        let gutter = String(location.line)
        let pad = String(repeating: " ", count: location.line > 0 ? gutter.count : 0)
        // A note adds to the diagnostic before it, whose line is already quoted.
        if location.line > 0, diagnostic.severity != .note, let whole = sources[location.file]?.line(location.line) {
            let (line, column) = Self.window(Substring(URLCredentials.redacted(String(whole))), column: location.column)
            out += " \(gutter) | \(line)\n"
            out += " \(pad) | \(caretPrefix(line, column: column))^\n"
        }
        if let hint = diagnostic.hint {
            out += " \(pad) = hint: \(hint)\n"
        }
        return out
    }

    /// "3 errors, 1 warning": the count of each severity but notes.
    public static func tally(_ diagnostics: [Diagnostic]) -> String {
        let errors = diagnostics.count { $0.severity == .error }, warnings = diagnostics.count { $0.severity == .warning }
        func counted(_ n: Int, _ noun: String) -> String? { n == 0 ? nil : "\(n) \(noun)\(n == 1 ? "" : "s")" }
        return [counted(errors, "error"), counted(warnings, "warning")].compactMap { $0 }.joined(separator: ", ")
    }

    /// Longest line quoted whole; a longer one is cut to a window around the column, so a
    /// file of one huge line with many errors does not print that line for each of them.
    static let quotedWidth = 160

    /// The part of `line` to quote and the column in it.
    static func window(_ line: Substring, column: Int) -> (text: Substring, column: Int) {
        let scalars = line.unicodeScalars
        guard scalars.count > quotedWidth else { return (line, column) }
        let start = max(0, min(column - 1 - quotedWidth / 2, scalars.count - quotedWidth))
        let from = scalars.index(scalars.startIndex, offsetBy: start)
        let to = scalars.index(from, offsetBy: quotedWidth)
        let text = (start > 0 ? "…" : "") + String(scalars[from..<to]) + (to < scalars.endIndex ? "…" : "")
        return (Substring(text), column - start + (start > 0 ? 1 : 0))
    }

    /// Spaces up to the column (counted in Unicode scalars), keeping tabs so the caret lines up.
    private func caretPrefix(_ line: Substring, column: Int) -> String {
        String(line.unicodeScalars.prefix(max(0, column - 1)).map { $0 == "\t" ? "\t" : " " })
    }
}
