/// One moment of a caption cue as drawn: its lines (already broken), which words are highlighted and how much of the text has been revealed.
/// A cue compiles to one layer per state, each static for its time range.
///
/// Offsets are UTF-8 byte offsets into `text` (what Pango indexes by).
public struct CaptionState: Hashable, Sendable, Codable {
    /// Lines joined by "\n"; a line is never re-wrapped when drawn, and every line takes the
    /// direction of the text's first strong character.
    public var text: String
    /// Font, size, colour, stroke, shadow; `background` is the box that hugs the lines.
    public var style: TextStyle
    /// The current word (one range per line it spans); empty when none is.
    public var highlighted: [Range<Int>]
    public var highlight: CaptionHighlight?
    /// Text from this offset on is not shown yet (its place is kept); nil: all of it is.
    public var revealedUpTo: Int?

    public init(text: String, style: TextStyle, highlighted: [Range<Int>] = [], highlight: CaptionHighlight? = nil, revealedUpTo: Int? = nil) {
        self.text = text
        self.style = style
        self.highlighted = highlighted
        self.highlight = highlight
        self.revealedUpTo = revealedUpTo
    }

    /// Between a caption's lines.
    public static let lineSeparator: Character = "\n"
}

/// How the current word stands out: its colour, a box behind it, a larger size (about its
/// centre, without moving the other words).
public struct CaptionHighlight: Hashable, Sendable, Codable {
    public var color: Color?
    public var box: TextStyle.Background?
    public var scale: Double

    public init(color: Color?, box: TextStyle.Background?, scale: Double) {
        self.color = color
        self.box = box
        self.scale = scale
    }
}
