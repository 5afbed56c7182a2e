internal import CCairo
import CompositionGraph

/// One state of a caption cue, laid out once with Pango: its lines as compiled (never
/// re-wrapped), all in the direction of the text's first strong character, aligned as the
/// style says. The box hugs the lines, grown by the background's padding.
///
/// Drawn in order: the background box, the highlight box behind the current word, the text
/// (stroke, then fill; the current word in the highlight colour), and the current word again
/// scaled about its centre when the highlight scales it (its unscaled self clipped away, so the
/// other words never move). Text not yet revealed is clipped away, keeping its place.
final class CaptionContent: UnitDrawable {
    private let context: OpaquePointer
    private let layout: OpaquePointer
    let state: CaptionState
    let boxWidth: Double
    let boxHeight: Double
    let inkBounds: Rect
    /// Where the layout's top-left corner goes in box coordinates.
    private let layoutX: Double
    private let layoutY: Double
    /// The current word's pieces (one per line), the same reaching out past the first and last
    /// lines (to clip with: descenders and accents may overshoot a line's logical box), and the
    /// text not revealed yet (reaching out too), in box coordinates.
    let highlightRects: [Rect]
    private let highlightClip: [Rect]
    private let hiddenRects: [Rect]

    init(state: CaptionState, fonts: FontCatalog) throws(OverlayError) {
        let style = state.style
        _ = try fonts.resolve(family: style.font, weight: style.weight, italic: style.italic)
        self.state = state
        context = fonts.makeContext()
        if let language = style.language { pango_context_set_language(context, pango_language_from_string(language)) }
        let direction = pango_find_base_dir(state.text, -1)
        pango_context_set_base_dir(context, direction == PANGO_DIRECTION_RTL ? PANGO_DIRECTION_RTL : PANGO_DIRECTION_LTR)
        layout = pango_layout_new(context)
        pango_layout_set_auto_dir(layout, 0)
        pango_layout_set_text(layout, state.text, -1)
        TextContent.applyParagraphStyle(style, to: layout)
        let font = TextContent.fontDescription(style)
        defer { pango_font_description_free(font) }
        TextContent.setSize(max(TextContent.units(style.size), 1), layout, font)
        if let color = state.highlight?.color, !state.highlighted.isEmpty { Self.color(state.highlighted, color, layout) }

        var ink = PangoRectangle(), logical = PangoRectangle()
        pango_layout_get_extents(layout, &ink, &logical)
        let logicalRect = TextContent.pixels(logical)
        let padding = style.background?.padding ?? 0
        boxWidth = logicalRect.width + 2 * padding
        boxHeight = logicalRect.height + 2 * padding
        let x = padding - logicalRect.x, y = padding - logicalRect.y
        layoutX = x
        layoutY = y
        let layout = layout, length = state.text.utf8.count
        let reach = style.size + max(style.stroke?.width ?? 0, 0)
        // The box hugs what is shown of the word, growing as its letters are revealed.
        let shown = state.highlighted.compactMap { range -> Range<Int>? in
            let upper = min(range.upperBound, state.revealedUpTo ?? length)
            return range.lowerBound < upper ? range.lowerBound..<upper : nil
        }
        highlightRects = Self.rects(of: shown, layout, reachingOut: 0).map { $0.offsetBy(x, y) }
        highlightClip = Self.rects(of: shown, layout, reachingOut: reach).map { $0.offsetBy(x, y) }
        hiddenRects = state.revealedUpTo.map { Self.rects(of: [$0..<length], layout, reachingOut: reach).map { $0.offsetBy(x, y) } } ?? []

        var bounds = TextContent.pixels(ink).offsetBy(x, y).expanded(by: max(style.stroke?.width ?? 0, 0))
        if style.background != nil { bounds = bounds.union(Rect(x: 0, y: 0, width: boxWidth, height: boxHeight)) }
        if let highlight = state.highlight {
            let reach = max(highlight.box?.padding ?? 0, style.stroke?.width ?? 0) + style.size * 0.5
            for rect in highlightRects { bounds = bounds.union(Self.scaled(rect.expanded(by: reach), highlight.scale, about: rect)) }
        }
        inkBounds = bounds
    }

    deinit {
        releaseGObject(layout)
        releaseGObject(context)
    }

    var shadow: Shadow? { state.style.shadow }

    var lineCount: Int { Int(pango_layout_get_line_count(layout)) }

    func draw(_ cr: OpaquePointer) {
        drawBehind(cr)
        drawText(cr)
    }

    /// The units of the page, split once per kind (box coordinates).
    private var unitCache: [TextUnitPhase.Unit: [TextUnit]] = [:]

    func units(by unit: TextUnitPhase.Unit) -> [TextUnit] {
        if let known = unitCache[unit] { return known }
        let reach = state.style.size * (state.highlight?.scale ?? 1) + max(state.style.stroke?.width ?? 0, 0) + (state.highlight?.box?.padding ?? 0)
        let units = TextUnits.split(layout, by: unit, reach: reach, origin: (layoutX, layoutY))
        unitCache[unit] = units
        return units
    }

    /// The box that hugs the lines.
    func drawBehind(_ cr: OpaquePointer) {
        if let background = state.style.background {
            cairo_new_path(cr)
            CairoDrawing.addRoundedRect(cr, Rect(x: 0, y: 0, width: boxWidth, height: boxHeight), radius: background.cornerRadius)
            CairoDrawing.setSource(cr, background.color)
            cairo_fill(cr)
        }
    }

    /// The highlight box, the text and the scaled current word.
    func drawText(_ cr: OpaquePointer) {
        let scale = state.highlight?.scale ?? 1
        if let box = state.highlight?.box {
            for rect in highlightRects {
                cairo_save(cr)
                Self.scale(cr, scale, about: rect)
                cairo_new_path(cr)
                CairoDrawing.addRoundedRect(cr, rect.expanded(by: box.padding), radius: box.cornerRadius)
                CairoDrawing.setSource(cr, box.color)
                cairo_fill(cr)
                cairo_restore(cr)
            }
        }
        cairo_save(cr)
        Self.clipAway(hiddenRects, cr)
        if scale != 1 { Self.clipAway(highlightClip, cr) }
        drawLayout(cr)
        cairo_restore(cr)
        guard scale != 1 else { return }
        for (rect, clip) in zip(highlightRects, highlightClip) {
            cairo_save(cr)
            Self.clipAway(hiddenRects, cr)
            Self.scale(cr, scale, about: rect)
            cairo_new_path(cr)
            cairo_rectangle(cr, clip.x, clip.y, clip.width, clip.height)
            cairo_clip(cr)
            drawLayout(cr)
            cairo_restore(cr)
        }
    }

    private func drawLayout(_ cr: OpaquePointer) {
        if let stroke = state.style.stroke, stroke.width > 0 {
            // Centred on the outline and then half covered by the fill: twice the width shows `width`.
            cairo_new_path(cr)
            cairo_move_to(cr, layoutX, layoutY)
            pango_cairo_layout_path(cr, layout)
            CairoDrawing.stroke(cr, stroke, lineWidth: 2 * stroke.width, roundJoins: true)
        }
        cairo_new_path(cr)
        cairo_move_to(cr, layoutX, layoutY)
        CairoDrawing.setSource(cr, state.style.color)
        pango_cairo_show_layout(cr, layout)
    }

    /// The highlight colour on the ranges, over the style's own attributes (letter spacing).
    private static func color(_ ranges: [Range<Int>], _ color: Color, _ layout: OpaquePointer) {
        let attributes = pango_layout_get_attributes(layout).map { pango_attr_list_copy($0)! } ?? pango_attr_list_new()!
        defer { pango_attr_list_unref(attributes) }
        for range in ranges {
            for attribute in TextContent.colorAttributes(color) {
                attribute.pointee.start_index = UInt32(range.lowerBound)
                attribute.pointee.end_index = UInt32(range.upperBound)
                pango_attr_list_insert(attributes, attribute)
            }
        }
        pango_layout_set_attributes(layout, attributes)
    }

    /// The rectangles (layout coordinates) the byte ranges cover: per line, the visual x
    /// ranges (several for mixed directions) by the line's logical top and bottom, `reach`
    /// pixels further above the first line and below the last.
    private static func rects(of ranges: [Range<Int>], _ layout: OpaquePointer, reachingOut reach: Double) -> [Rect] {
        var rects: [Rect] = []
        let iter = pango_layout_get_iter(layout)!
        defer { pango_layout_iter_free(iter) }
        var isFirst = true
        repeat {
            defer { isFirst = false }
            guard let line = pango_layout_iter_get_line_readonly(iter) else { continue }
            var logical = PangoRectangle()
            pango_layout_iter_get_line_extents(iter, nil, &logical)
            let above = isFirst ? TextContent.units(reach) : 0, below = pango_layout_iter_at_last_line(iter) != 0 ? TextContent.units(reach) : 0
            logical.y -= above
            logical.height += above + below
            let lineStart = Int(line.pointee.start_index), lineEnd = lineStart + Int(line.pointee.length)
            for range in ranges {
                let lower = max(range.lowerBound, lineStart), upper = min(range.upperBound, lineEnd)
                guard lower < upper else { continue }
                var xs: UnsafeMutablePointer<Int32>?
                var count: Int32 = 0
                pango_layout_line_get_x_ranges(line, Int32(lower), Int32(upper), &xs, &count)
                guard let xs else { continue }
                // Runs of mixed directions give several ranges; touching ones become one, so no
                // seam between them lets a sliver of a glyph through the clip.
                var spans: [(Int32, Int32)] = []
                for (start, end) in (0..<Int(count)).map({ (xs[2 * $0], xs[2 * $0 + 1]) }).sorted(by: { $0.0 < $1.0 }) {
                    if let last = spans.last, start <= last.1 { spans[spans.count - 1].1 = max(last.1, end) } else { spans.append((start, end)) }
                }
                g_free(xs)
                for (start, end) in spans {
                    rects.append(TextContent.pixels(PangoRectangle(x: start, y: logical.y, width: end - start, height: logical.height)))
                }
            }
        } while pango_layout_iter_next_line(iter) != 0
        return rects
    }

    /// Keeps drawing out of `rects` (which must not overlap).
    private static func clipAway(_ rects: [Rect], _ cr: OpaquePointer) {
        guard !rects.isEmpty else { return }
        cairo_new_path(cr)
        cairo_rectangle(cr, -1e6, -1e6, 2e6, 2e6)
        for r in rects { cairo_rectangle(cr, r.x, r.y, r.width, r.height) }
        cairo_set_fill_rule(cr, CAIRO_FILL_RULE_EVEN_ODD)
        cairo_clip(cr)
        cairo_set_fill_rule(cr, CAIRO_FILL_RULE_WINDING)
    }

    private static func scale(_ cr: OpaquePointer, _ factor: Double, about rect: Rect) {
        guard factor != 1 else { return }
        cairo_translate(cr, rect.x + rect.width / 2, rect.y + rect.height / 2)
        cairo_scale(cr, factor, factor)
        cairo_translate(cr, -(rect.x + rect.width / 2), -(rect.y + rect.height / 2))
    }

    private static func scaled(_ r: Rect, _ factor: Double, about centre: Rect) -> Rect {
        let cx = centre.x + centre.width / 2, cy = centre.y + centre.height / 2
        return Rect(x: cx + (r.x - cx) * factor, y: cy + (r.y - cy) * factor, width: r.width * factor, height: r.height * factor)
    }
}
