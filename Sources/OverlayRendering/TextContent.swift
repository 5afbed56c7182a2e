internal import CCairo
import CompositionGraph

/// A text layer laid out once with Pango: every script Pango and the fonts support (bidi,
/// shaping, combining marks), UAX #14 line breaking (CJK included) at the box width.
///
/// Box: the text's logical extent, or the box width/height (the style's, else the layer's
/// `width`/`height`), grown by the background's padding. Lines align inside the box width
/// (`left`/`right` mean start/end in a right-to-left paragraph, as in Pango) and sit at the
/// top, middle or bottom of a box height. The text's inline runs (its markup) are Pango
/// attributes over the plain text. Drawn in order: background (the box, or a box per line),
/// stroke, fill.
final class TextContent: UnitDrawable {
    private let context: OpaquePointer
    private let layout: OpaquePointer
    let style: TextStyle
    let boxWidth: Double
    let boxHeight: Double
    /// Where the layout's top-left corner goes in box coordinates.
    let layoutX: Double
    let layoutY: Double
    let inkBounds: Rect
    /// The size the text is set at: `style.size`, or less after `fit: shrink`.
    let fontSize: Double
    /// What the background covers (box coordinates): the whole box, or each line's logical
    /// extent grown by the padding; empty without a background.
    let backgroundRects: [Rect]

    static let pangoScale = 1024.0

    init(text: String, style: TextStyle, layerWidth: Double?, layerHeight: Double?, fonts: FontCatalog) throws(OverlayError) {
        for family in [style.font] + style.inlineFonts {
            _ = try fonts.resolve(family: family, weight: style.weight, italic: style.italic)
        }
        let boxW = style.boxWidth ?? layerWidth, boxH = style.boxHeight ?? layerHeight
        guard style.fit == .none || boxW != nil || boxH != nil else { throw OverlayError(.shrinkNeedsBox) }
        self.style = style
        context = fonts.makeContext()
        if let language = style.language { pango_context_set_language(context, pango_language_from_string(language)) }
        layout = pango_layout_new(context)
        pango_layout_set_text(layout, text, -1)
        Self.applyParagraphStyle(style, to: layout)

        // Shrinking to a width alone, or with `wrap: false`, keeps each paragraph on one line;
        // otherwise lines wrap at the box width (whole words when shrinking, so a long word
        // shrinks instead of breaking). Without wrapping or shrinking the width only aligns.
        let shrinksToWidthOnly = style.fit == .shrink && (boxH == nil || !style.wrap)
        // With the width set, Pango's own line breaking decides what fits: a size fits when
        // no paragraph had to wrap (measuring widths separately disagrees with it by a hair).
        let maxLines = shrinksToWidthOnly ? pango_layout_get_line_count(layout) : nil
        let wrapsAtWidth = boxW != nil && (style.wrap || style.fit == .shrink)
        if let boxW, wrapsAtWidth {
            pango_layout_set_width(layout, Self.units(boxW))
            pango_layout_set_wrap(layout, style.fit == .shrink ? PANGO_WRAP_WORD : PANGO_WRAP_WORD_CHAR)
        }
        let font = Self.fontDescription(style)
        defer { pango_font_description_free(font) }
        let fullSize = max(Self.units(style.size), 1)
        let layout = layout
        func setSize(_ size: Int32) {
            Self.setSize(size, layout, font)
            Self.setAttributes(style, inline: style.inline, scale: Double(size) / Double(fullSize), on: layout)
        }
        let size = style.fit == .shrink
            ? Self.largestFittingSize(layout, upTo: fullSize, width: boxW, height: boxH, maxLines: maxLines, setSize: setSize)
            : fullSize
        setSize(size)
        fontSize = Double(size) / Self.pangoScale

        var ink = PangoRectangle(), logical = PangoRectangle()
        pango_layout_get_extents(layout, &ink, &logical)
        let inkRect = Self.pixels(ink), logicalRect = Self.pixels(logical)
        let padding = style.background?.padding ?? 0
        boxWidth = (boxW ?? logicalRect.width) + 2 * padding
        boxHeight = (boxH ?? logicalRect.height) + 2 * padding
        let alignedX = boxW.map { wrapsAtWidth ? 0 : ($0 - logicalRect.width) * style.alignment.fraction - logicalRect.x } ?? -logicalRect.x
        let x = alignedX + padding
        let y = (boxH.map { ($0 - logicalRect.height) * style.verticalAlignment.fraction } ?? 0) - logicalRect.y + padding
        let background: [Rect]
        switch style.background?.fit {
        case nil: background = []
        case .box: background = [Rect(x: 0, y: 0, width: boxWidth, height: boxHeight)]
        case .lines: background = Self.lineRects(layout).map { $0.offsetBy(x, y).expanded(by: padding) }
        }
        layoutX = x
        layoutY = y
        backgroundRects = background
        inkBounds = background.reduce(inkRect.offsetBy(x, y).expanded(by: max(style.stroke?.width ?? 0, 0))) { $0.union($1) }
    }

    deinit {
        releaseGObject(layout)
        releaseGObject(context)
    }

    var shadow: Shadow? { style.shadow }

    /// Characters no font could draw (shown as hex boxes); 0 when every script was covered.
    var unknownGlyphCount: Int { Int(pango_layout_get_unknown_glyphs_count(layout)) }

    var lineCount: Int { Int(pango_layout_get_line_count(layout)) }

    /// Whether the first paragraph runs right to left (its first strong character decides).
    var isRightToLeft: Bool { pango_layout_get_direction(layout, 0) == PANGO_DIRECTION_RTL }

    func draw(_ cr: OpaquePointer) {
        drawBehind(cr)
        drawText(cr)
    }

    /// The units of the text, split once per kind (box coordinates).
    private var unitCache: [TextUnitPhase.Unit: [TextUnit]] = [:]

    func units(by unit: TextUnitPhase.Unit) -> [TextUnit] {
        if let known = unitCache[unit] { return known }
        let units = TextUnits.split(layout, by: unit, reach: fontSize + max(style.stroke?.width ?? 0, 0), origin: (layoutX, layoutY))
        unitCache[unit] = units
        return units
    }

    /// The background: the box, or a rounded box per line.
    func drawBehind(_ cr: OpaquePointer) {
        guard let background = style.background else { return }
        cairo_new_path(cr)
        for rect in backgroundRects { CairoDrawing.addRoundedRect(cr, rect, radius: background.cornerRadius) }
        CairoDrawing.setSource(cr, background.color)
        cairo_fill(cr)
    }

    /// The logical extent of each line that holds text (layout coordinates, pixels).
    private static func lineRects(_ layout: OpaquePointer) -> [Rect] {
        var rects: [Rect] = []
        let iter = pango_layout_get_iter(layout)!
        defer { pango_layout_iter_free(iter) }
        repeat {
            var logical = PangoRectangle()
            pango_layout_iter_get_line_extents(iter, nil, &logical)
            if logical.width > 0 { rects.append(pixels(logical)) }
        } while pango_layout_iter_next_line(iter) != 0
        return rects
    }

    /// The stroke, then the fill.
    func drawText(_ cr: OpaquePointer) {
        if let stroke = style.stroke, stroke.width > 0 {
            // Centred on the outline and then half covered by the fill: twice the width shows `width`.
            cairo_new_path(cr)
            cairo_move_to(cr, layoutX, layoutY)
            pango_cairo_layout_path(cr, layout)
            CairoDrawing.stroke(cr, stroke, lineWidth: 2 * stroke.width, roundJoins: true)
        }
        cairo_new_path(cr)
        cairo_move_to(cr, layoutX, layoutY)
        CairoDrawing.setSource(cr, style.color)
        pango_cairo_show_layout(cr, layout)
    }

    /// The style's family, weight and slant (the caller sets the size and frees it).
    static func fontDescription(_ style: TextStyle) -> OpaquePointer {
        let font = pango_font_description_new()!
        pango_font_description_set_family(font, style.font)
        pango_font_description_set_weight(font, PangoWeight(rawValue: UInt32(min(max(style.weight, 100), 1000))))
        pango_font_description_set_style(font, style.italic ? PANGO_STYLE_ITALIC : PANGO_STYLE_NORMAL)
        return font
    }

    static func applyParagraphStyle(_ style: TextStyle, to layout: OpaquePointer) {
        switch style.alignment {
        case .left: pango_layout_set_alignment(layout, PANGO_ALIGN_LEFT)
        case .center: pango_layout_set_alignment(layout, PANGO_ALIGN_CENTER)
        case .right: pango_layout_set_alignment(layout, PANGO_ALIGN_RIGHT)
        }
        if let lineHeight = style.lineHeight { pango_layout_set_line_spacing(layout, Float(lineHeight)) }
        setAttributes(style, inline: [], scale: 1, on: layout)
    }

    /// The layout's attributes: the style's letter spacing over the whole text, then the
    /// inline runs in order (a run opened later wins where they overlap), their sizes × `scale`.
    static func setAttributes(_ style: TextStyle, inline runs: [TextStyle.InlineRun], scale: Double, on layout: OpaquePointer) {
        guard style.letterSpacing != 0 || !runs.isEmpty else { return }
        let attributes = pango_attr_list_new()!
        defer { pango_attr_list_unref(attributes) }
        if style.letterSpacing != 0 { pango_attr_list_insert(attributes, pango_attr_letter_spacing_new(units(style.letterSpacing))) }
        for run in runs {
            for attribute in Self.attributes(run.style, scale: scale) {
                attribute.pointee.start_index = UInt32(run.start)
                attribute.pointee.end_index = UInt32(run.end)
                pango_attr_list_insert(attributes, attribute)
            }
        }
        pango_layout_set_attributes(layout, attributes)
    }

    /// The Pango attributes of one inline style (the caller inserts them into a list, which owns them).
    private static func attributes(_ style: TextStyle.InlineStyle, scale: Double) -> [UnsafeMutablePointer<PangoAttribute>] {
        let made: [UnsafeMutablePointer<PangoAttribute>?]
        switch style {
        case .bold: made = [pango_attr_weight_new(PANGO_WEIGHT_BOLD)]
        case .italic: made = [pango_attr_style_new(PANGO_STYLE_ITALIC)]
        case .underline: made = [pango_attr_underline_new(PANGO_UNDERLINE_SINGLE)]
        case .strikethrough: made = [pango_attr_strikethrough_new(1)]
        case .color(let color): return colorAttributes(color)
        case .font(let family): made = [pango_attr_family_new(family)]
        case .size(let pixels): made = [pango_attr_size_new_absolute(max(units(pixels * scale), 1))]
        }
        return made.compactMap { $0 }
    }

    /// A colour as Pango attributes: the foreground and its alpha (0 is Pango's "unset", so at least 1).
    static func colorAttributes(_ color: Color) -> [UnsafeMutablePointer<PangoAttribute>] {
        func channel(_ v: Double) -> UInt16 { UInt16((min(max(v, 0), 1) * 65535).rounded()) }
        return [pango_attr_foreground_new(channel(color.red), channel(color.green), channel(color.blue)),
                pango_attr_foreground_alpha_new(max(channel(color.alpha), 1))].compactMap { $0 }
    }

    static func setSize(_ size: Int32, _ layout: OpaquePointer, _ font: OpaquePointer) {
        pango_font_description_set_absolute_size(font, Double(size))
        pango_layout_set_font_description(layout, font)
    }

    /// The largest size (Pango units, at most `full`) whose logical extent fits the box and,
    /// when `maxLines` is given, that lays out in at most that many lines; by bisection over
    /// whole Pango units: exact and the same on every machine.
    private static func largestFittingSize(_ layout: OpaquePointer, upTo full: Int32, width: Double?, height: Double?,
                                           maxLines: Int32?, setSize: (Int32) -> Void) -> Int32 {
        let maxWidth = width.map(units), maxHeight = height.map(units)
        func fits(_ size: Int32) -> Bool {
            setSize(size)
            var logical = PangoRectangle()
            pango_layout_get_extents(layout, nil, &logical)
            return (maxWidth.map { logical.width <= $0 } ?? true) && (maxHeight.map { logical.height <= $0 } ?? true)
                && (maxLines.map { pango_layout_get_line_count(layout) <= $0 } ?? true)
        }
        if fits(full) { return full }
        var fitting: Int32 = 1, tooBig = full
        while tooBig - fitting > 1 {
            let middle = fitting + (tooBig - fitting) / 2
            if fits(middle) { fitting = middle } else { tooBig = middle }
        }
        return fitting
    }

    /// Pixels → Pango units (1/1024 px), kept inside what Pango's 32-bit coordinates hold.
    static func units(_ pixels: Double) -> Int32 {
        guard pixels.isFinite else { return 0 }
        return Int32(min(max((pixels * pangoScale).rounded(), -1e9), 1e9))
    }

    static func pixels(_ r: PangoRectangle) -> Rect {
        Rect(x: Double(r.x) / pangoScale, y: Double(r.y) / pangoScale, width: Double(r.width) / pangoScale, height: Double(r.height) / pangoScale)
    }
}

extension FontCatalog {
    /// A text layer's box size and the rectangle its ink, stroke and background box cover (box
    /// coordinates), laid out as it will be drawn; nil when it cannot be laid out (the render
    /// reports why).
    public func textFootprint(of text: String, style: TextStyle, width: Double?, height: Double?)
        -> (boxWidth: Double, boxHeight: Double, x: Double, y: Double, width: Double, height: Double)? {
        guard let content = try? TextContent(text: text, style: style, layerWidth: width, layerHeight: height, fonts: self) else { return nil }
        let ink = content.inkBounds
        return (content.boxWidth, content.boxHeight, ink.x, ink.y, ink.width, ink.height)
    }
}

extension FontCatalog {
    /// What each unit of a text layer shows when it is split `by` (`TextUnits`), laid out as it
    /// will be drawn; nil when it cannot be laid out (the render reports why).
    public func textUnits(of text: String, style: TextStyle, width: Double?, height: Double?, by unit: TextUnitPhase.Unit) -> [String]? {
        guard let content = try? TextContent(text: text, style: style, layerWidth: width, layerHeight: height, fonts: self) else { return nil }
        let bytes = Array(text.utf8)
        return content.units(by: unit).map { String(decoding: bytes[$0.range], as: UTF8.self) }
    }
}

extension TextStyle {
    /// The font families the inline runs name.
    var inlineFonts: [String] {
        inline.compactMap { if case .font(let family) = $0.style { family } else { nil } }
    }
}

extension TextStyle.Alignment {
    /// How far along the spare width a line sits.
    var fraction: Double {
        switch self {
        case .left: 0
        case .center: 0.5
        case .right: 1
        }
    }
}

extension TextStyle.VerticalAlignment {
    /// How far down the spare height the lines sit.
    var fraction: Double {
        switch self {
        case .top: 0
        case .middle: 0.5
        case .bottom: 1
        }
    }
}
