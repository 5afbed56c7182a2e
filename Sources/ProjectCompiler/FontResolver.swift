import CompositionGraph

/// Resolves a font family to the file that will draw it (fontconfig in the command line),
/// with the project's own font files registered first.
public protocol FontResolver {
    /// Registers the project's font files; returns the files that cannot be used, and why.
    mutating func register(fontFiles: [String]) -> [(file: String, problem: FontFileProblem)]
    /// The font file for the family, or the families that are available.
    func resolve(family: String, weight: Int, italic: Bool) -> FontResolution
    /// The lines a caption's text is set in at `width` pixels (UTF-8 byte ranges, without
    /// trailing blanks): balanced lines, broken where the font's rules allow; nil when this
    /// resolver does not lay text out (the text then breaks only at its own line breaks).
    func captionLines(of text: String, style: TextStyle, width: Double) -> [Range<Int>]?
}

/// Why a font file listed under `fonts:` cannot be used.
public enum FontFileProblem: Sendable, Equatable {
    /// No file at the path.
    case missing
    /// The file is there but holds no font that can be used, with the explanation.
    case unusable(String)
}

public enum FontResolution: Sendable {
    case file(String)
    case unavailable(available: [String])
}
