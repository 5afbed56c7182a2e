import CompositionGraph
import MediaTime

/// A `captions:` entry: cues from a file or written inline, and how they look.
public struct CaptionTrack: Sendable {
    public enum Source: Sendable {
        /// An absolute path, and the path as messages show it.
        case file(path: String, name: String)
        case inline([Cue])
    }

    public enum Placement: Sendable {
        /// Centred in the safe area, against its bottom or top edge, or in the middle of the frame.
        case bottom, top, middle
        /// The anchor (fractions of the box) lands on the point.
        case point(Point2D, anchor: (x: Double, y: Double))
    }

    public enum Reveal: String, Sendable {
        case none, word, letter
    }

    public var source: Source
    /// Font, size, colours, stroke, shadow; `background` is the box that hugs the lines.
    public var style: TextStyle
    public var placement: Placement
    /// Safe margins: the box stays this far from the frame's left/right and top/bottom edges.
    public var marginX: Length
    public var marginY: Length
    /// Lines wrap at this width (at most the safe area's).
    public var wrapWidth: Length?
    /// A cue with more lines is shown in parts of this many lines, one after the other.
    public var maxLines: Int
    public var highlight: CaptionHighlight?
    public var reveal: Reveal
    public var origin: Origin
    /// Where the style names its font, for errors about the font (nil: the default font).
    public var fontOrigin: Origin? = nil
    /// Where `highlight` is written.
    public var highlightOrigin: Origin? = nil
    /// How each page comes in and leaves (by unit, or the whole page as one).
    public var enter: TextUnitMoveSpec? = nil
    public var exit: TextUnitMoveSpec? = nil
}
