internal import CCairo
import CompositionGraph

/// A text layer laid out once with Pango: every script Pango and the fonts support (bidi,
/// shaping, combining marks), UAX #14 line breaking (CJK included) at the box width.
///
/// Box: the text's logical extent, or the box width/height (the style's, else the layer's
/// `width`/`height`), grown by the background's padding. Lines align inside the box width
/// (`left`/`right` mean start/end in a right-to-left paragraph, as in Pango); a box height
/// centres the text vertically. Drawn in order: background box, stroke, fill.
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

    static let pangoScale = 1024.0

    init(text: String, style: TextStyle, layerWidth: Double?, layerHeight: Double?, fonts: FontCatalog) throws(OverlayError) {
        _ = try fonts.resolve(family: style.font, weight: style.weight, italic: style.italic)
        let boxW = style.boxWidth ?? layerWidth, boxH = style.boxHeight ?? layerHeight
        guard style.fit == .none || boxW != nil || boxH != nil else { throw OverlayError(.shrinkNeedsBox) }
        self.style = style
        context = fonts.makeContext()
        if let language = style.language { pango_context_set_language(context, pango_language_from_string(language)) }
        layout = pango_layout_new(context)
        pango_layout_set_text(layout, text, -1)
        Self.applyParagraphStyle(style, to: layout)

        // Shrinking to a width alone keeps each paragraph on one line; otherwise lines wrap at
        // the box width (whole words when shrinking, so a long word shrinks instead of breaking).
        let shrinksToWidthOnly = style.fit == .shrink && boxH == nil
        // With the width set, Pango's own line breaking decides what fits: a size fits when
        // no paragraph had to wrap (measuring widths separately disagrees with it by a hair).
        let maxLines = shrinksToWidthOnly ? pango_layout_get_line_count(layout) : nil
        if let boxW {
            pango_layout_set_width(layout, Self.units(boxW))
            pango_layout_set_wrap(layout, style.fit == .shrink ? PANGO_WRAP_WORD : PANGO_WRAP_WORD_CHAR)
        }
        let font = Self.fontDescription(style)
        defer { pango_font_description_free(font) }
        let fullSize = max(Self.units(style.size), 1)
        let size = style.fit == .shrink
            ? Self.largestFittingSize(layout, font, upTo: fullSize, width: boxW, height: boxH, maxLines: maxLines)
            : fullSize
        Self.setSize(size, layout, font)
        fontSize = Double(size) / Self.pangoScale

        var ink = PangoRectangle(), logical = PangoRectangle()
        pango_layout_get_extents(layout, &ink, &logical)
        let inkRect = Self.pixels(ink), logicalRect = Self.pixels(logical)
        let padding = style.background?.padding ?? 0
        boxWidth = (boxW ?? logicalRect.width) + 2 * padding
        boxHeight = (boxH ?? logicalRect.height) + 2 * padding
        layoutX = (boxW == nil ? -logicalRect.x : 0) + padding
        layoutY = (boxH.map { ($0 - logicalRect.height) / 2 } ?? 0) - logicalRect.y + padding
        var bounds = inkRect.offsetBy(layoutX, layoutY).expanded(by: max(style.stroke?.width ?? 0, 0))
        if style.background != nil { bounds = bounds.union(Rect(x: 0, y: 0, width: boxWidth, height: boxHeight)) }
        inkBounds = bounds
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

    /// The background box.
    func drawBehind(_ cr: OpaquePointer) {
        if let background = style.background {
            cairo_new_path(cr)
            CairoDrawing.addRoundedRect(cr, Rect(x: 0, y: 0, width: boxWidth, height: boxHeight), radius: background.cornerRadius)
            CairoDrawing.setSource(cr, background.color)
            cairo_fill(cr)
        }
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
        if style.letterSpacing != 0 {
            let attributes = pango_attr_list_new()
            pango_attr_list_insert(attributes, pango_attr_letter_spacing_new(units(style.letterSpacing)))
            pango_layout_set_attributes(layout, attributes)
            pango_attr_list_unref(attributes)
        }
    }

    static func setSize(_ size: Int32, _ layout: OpaquePointer, _ font: OpaquePointer) {
        pango_font_description_set_absolute_size(font, Double(size))
        pango_layout_set_font_description(layout, font)
    }

    /// The largest size (Pango units, at most `full`) whose logical extent fits the box and,
    /// when `maxLines` is given, that lays out in at most that many lines; by bisection over
    /// whole Pango units: exact and the same on every machine.
    private static func largestFittingSize(_ layout: OpaquePointer, _ font: OpaquePointer, upTo full: Int32,
                                           width: Double?, height: Double?, maxLines: Int32?) -> Int32 {
        let maxWidth = width.map(units), maxHeight = height.map(units)
        func fits(_ size: Int32) -> Bool {
            setSize(size, layout, font)
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
