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
    /// Where a text layer draws, laid out as the renderer will (`width`/`height`: the layer's
    /// box, if it has one); nil when this resolver does not lay text out.
    func footprint(of text: String, style: TextStyle, width: Double?, height: Double?) -> TextFootprint?
    /// What each unit of a text layer shows when split `by` (letters, words, lines), laid out
    /// as the renderer will; nil when this resolver does not lay text out.
    func textUnits(of text: String, style: TextStyle, width: Double?, height: Double?, by unit: TextUnitPhase.Unit) -> [String]?
}

extension FontResolver {
    public func footprint(of text: String, style: TextStyle, width: Double?, height: Double?) -> TextFootprint? { nil }
    public func textUnits(of text: String, style: TextStyle, width: Double?, height: Double?, by unit: TextUnitPhase.Unit) -> [String]? { nil }
}

/// A text layer's box (what its anchor is a fraction of) and the rectangle its ink, stroke
/// and background box cover, in the box's coordinates.
public struct TextFootprint: Sendable, Equatable {
    public var boxWidth: Double
    public var boxHeight: Double
    public var inkX: Double, inkY: Double, inkWidth: Double, inkHeight: Double

    public init(boxWidth: Double, boxHeight: Double, inkX: Double, inkY: Double, inkWidth: Double, inkHeight: Double) {
        (self.boxWidth, self.boxHeight) = (boxWidth, boxHeight)
        (self.inkX, self.inkY, self.inkWidth, self.inkHeight) = (inkX, inkY, inkWidth, inkHeight)
    }
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
