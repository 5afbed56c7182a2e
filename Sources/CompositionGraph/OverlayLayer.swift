import MediaTime

/// A layer drawn over the composed video for a time range (AVVideoCompositionCoreAnimationTool).
///
/// Geometry: the layer's box (its natural size, or `size`) is placed so that the point
/// `anchor` (fractions of the box) lands on `position` (output pixels); `scale` and
/// `rotation` (degrees, clockwise) act about that anchor. Fades are folded into `opacity`.
public struct OverlayLayer: Hashable, Sendable, Codable {
    public var content: OverlayContent
    public var timeRange: TimeRange
    public var positionX: Animation
    public var positionY: Animation
    public var anchorX: Animation
    public var anchorY: Animation
    /// Box size in output pixels; a nil side follows the other by aspect ratio, both nil
    /// means the natural size (an image's pixels, a text's layout).
    public var width: Double?
    public var height: Double?
    /// How an image or SVG fills a box given by both `width` and `height`.
    public var fit: Fit
    public var scale: Animation
    public var rotation: Animation
    public var opacity: Animation
    /// The part a wipe shows (nil: all of it).
    public var reveal: RevealBox?
    /// A text or caption that enters or leaves a letter, word or line at a time (nil: as a whole).
    public var textUnits: TextUnitMotion?

    public init(content: OverlayContent, timeRange: TimeRange, positionX: Animation, positionY: Animation,
                anchorX: Animation = .constant(0.5), anchorY: Animation = .constant(0.5),
                width: Double? = nil, height: Double? = nil, scale: Animation = .constant(1),
                rotation: Animation = .constant(0), opacity: Animation = .constant(1), fit: Fit = .contain,
                reveal: RevealBox? = nil, textUnits: TextUnitMotion? = nil) {
        self.content = content
        self.timeRange = timeRange
        self.positionX = positionX
        self.positionY = positionY
        self.anchorX = anchorX
        self.anchorY = anchorY
        self.width = width
        self.height = height
        self.fit = fit
        self.scale = scale
        self.rotation = rotation
        self.opacity = opacity
        self.reveal = reveal
        self.textUnits = textUnits
    }

    public var animations: [Animation] { [positionX, positionY, anchorX, anchorY, scale, rotation, opacity] + (reveal?.animations ?? []) }

    /// True when nothing about the layer changes over time (it can be drawn once and reused).
    public var isStatic: Bool { textUnits == nil && animations.allSatisfy(\.isConstant) }
}

/// What a wipe leaves of a layer: its ink between a left and a right line and between a top
/// and a bottom one, each a fraction of the ink's bounding box (0 its left or top edge, 1 its
/// right or bottom edge). The lines stay with the layer as it moves, turns and scales.
public struct RevealBox: Hashable, Sendable, Codable {
    public var left: Animation
    public var top: Animation
    public var right: Animation
    public var bottom: Animation

    /// Everything shown.
    public static let whole = RevealBox(left: .constant(0), top: .constant(0), right: .constant(1), bottom: .constant(1))

    public init(left: Animation, top: Animation, right: Animation, bottom: Animation) {
        self.left = left
        self.top = top
        self.right = right
        self.bottom = bottom
    }

    public var animations: [Animation] { [left, top, right, bottom] }
}

public enum OverlayContent: Hashable, Sendable, Codable {
    case text(String, TextStyle)
    /// One state of a caption cue (see `CaptionState`).
    case caption(CaptionState)
    case image(MediaReference)
    case svg(MediaReference)
    case rect(ShapeStyle)
    case ellipse(ShapeStyle)
}

extension OverlayContent {
    /// The text style of a text or caption layer (whose font the render needs).
    public var textStyle: TextStyle? {
        get {
            switch self {
            case .text(_, let style): style
            case .caption(let state): state.style
            default: nil
            }
        }
        set {
            guard let newValue else { return }
            switch self {
            case .text(let text, _): self = .text(text, newValue)
            case .caption(var state):
                state.style = newValue
                self = .caption(state)
            default: break
            }
        }
    }

    /// The words a text or caption layer shows.
    public var shownText: String? {
        switch self {
        case .text(let text, _): text
        case .caption(let state): String(state.text.map { $0 == CaptionState.lineSeparator ? " " : $0 })
        default: nil
        }
    }
}

public struct Stroke: Hashable, Sendable, Codable {
    public var color: Color
    public var width: Double

    public init(color: Color, width: Double) {
        self.color = color
        self.width = width
    }
}

public struct Shadow: Hashable, Sendable, Codable {
    public var color: Color
    public var offsetX: Double
    public var offsetY: Double
    public var blur: Double

    public init(color: Color, offsetX: Double, offsetY: Double, blur: Double) {
        self.color = color
        self.offsetX = offsetX
        self.offsetY = offsetY
        self.blur = blur
    }
}

public struct TextStyle: Hashable, Sendable, Codable {
    public enum Alignment: String, Hashable, Sendable, Codable { case left, center, right }
    /// Where the lines sit in `boxHeight`.
    public enum VerticalAlignment: String, Hashable, Sendable, Codable { case top, middle, bottom }
    public enum FitMode: String, Hashable, Sendable, Codable {
        /// Lay out at `size`, whatever it takes.
        case none
        /// Reduce the size until the text fits `boxWidth` (and `boxHeight` if given).
        case shrink
    }

    /// A solid box behind the text.
    public struct Background: Hashable, Sendable, Codable {
        /// One box filling the text's box, or one box per line hugging that line's text.
        public enum Fit: String, Hashable, Sendable, Codable { case box, lines }

        public var color: Color
        public var padding: Double
        public var cornerRadius: Double
        public var fit: Fit

        public init(color: Color, padding: Double, cornerRadius: Double, fit: Fit = .box) {
            self.color = color
            self.padding = padding
            self.cornerRadius = cornerRadius
            self.fit = fit
        }
    }

    /// One style a run of the text takes from its markup (`<b>`, `<span color=…>`).
    public enum InlineStyle: Hashable, Sendable, Codable {
        case bold, italic, underline, strikethrough
        case color(Color)
        /// A font family, resolved as the style's.
        case font(String)
        /// Pixels at the style's `size` (scaled with it by `fit: shrink`).
        case size(Double)
    }

    /// An inline style over the UTF-8 bytes `start..<end` of the text.
    public struct InlineRun: Hashable, Sendable, Codable {
        public var start: Int
        public var end: Int
        public var style: InlineStyle

        public init(start: Int, end: Int, style: InlineStyle) {
            self.start = start
            self.end = end
            self.style = style
        }
    }

    public var font: String
    /// CSS weight, 100…900 (400 normal, 700 bold).
    public var weight: Int
    public var italic: Bool
    /// Pixels.
    public var size: Double
    public var color: Color
    public var alignment: Alignment
    public var verticalAlignment: VerticalAlignment
    /// Wrap width in pixels; nil: one line per paragraph.
    public var boxWidth: Double?
    public var boxHeight: Double?
    /// false: lines break only where the text does (and `fit: shrink` fits the longest one to
    /// the width instead of wrapping first).
    public var wrap: Bool
    /// Multiple of the font's line height; nil: the font's own.
    public var lineHeight: Double?
    /// Extra pixels between letters.
    public var letterSpacing: Double
    /// Drawn under the fill.
    public var stroke: Stroke?
    public var shadow: Shadow?
    public var background: Background?
    public var fit: FitMode
    /// The styles of runs of a text overlay's text, from its markup (the text itself is plain:
    /// the tags taken out); empty without markup. Captions draw none.
    public var inline: [InlineRun]
    /// BCP 47 language of the text (`ja`, `zh-Hans`, `ko`…): picks the fallback fonts and the
    /// glyph forms of scripts shared between languages, such as Han characters. nil: English
    /// rules (the same on every machine, whatever its locale).
    public var language: String?
    /// The font file the family resolved to, filled in at validation (shown by `reel graph`).
    public var resolvedFontFile: String?

    public init(font: String, weight: Int = 400, italic: Bool = false, size: Double, color: Color = .white,
                alignment: Alignment = .center, verticalAlignment: VerticalAlignment = .middle,
                boxWidth: Double? = nil, boxHeight: Double? = nil, wrap: Bool = true, lineHeight: Double? = nil,
                letterSpacing: Double = 0, stroke: Stroke? = nil, shadow: Shadow? = nil, background: Background? = nil,
                fit: FitMode = .none, inline: [InlineRun] = [], language: String? = nil, resolvedFontFile: String? = nil) {
        self.font = font
        self.weight = weight
        self.italic = italic
        self.size = size
        self.color = color
        self.alignment = alignment
        self.verticalAlignment = verticalAlignment
        self.boxWidth = boxWidth
        self.boxHeight = boxHeight
        self.wrap = wrap
        self.lineHeight = lineHeight
        self.letterSpacing = letterSpacing
        self.stroke = stroke
        self.shadow = shadow
        self.background = background
        self.fit = fit
        self.inline = inline
        self.language = language
        self.resolvedFontFile = resolvedFontFile
    }
}

/// Fill of a rectangle or ellipse: a colour or a linear gradient.
public enum Fill: Hashable, Sendable, Codable {
    case color(Color)
    /// Stops at offsets 0…1 along a line at `angle` degrees (0 = left to right, 90 = top to bottom).
    case linearGradient(angle: Double, stops: [GradientStop])
}

public struct GradientStop: Hashable, Sendable, Codable {
    public var offset: Double
    public var color: Color

    public init(offset: Double, color: Color) {
        self.offset = offset
        self.color = color
    }
}

public struct ShapeStyle: Hashable, Sendable, Codable {
    public var fill: Fill?
    public var stroke: Stroke?
    public var cornerRadius: Double

    public init(fill: Fill?, stroke: Stroke? = nil, cornerRadius: Double = 0) {
        self.fill = fill
        self.stroke = stroke
        self.cornerRadius = cornerRadius
    }
}
