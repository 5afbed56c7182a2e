internal import CCairo
import CompositionGraph

/// Small drawing helpers shared by the layer kinds.
enum CairoDrawing {
    static func setSource(_ cr: OpaquePointer, _ color: Color) {
        cairo_set_source_rgba(cr, color.red, color.green, color.blue, color.alpha)
    }

    /// Adds a rectangle with corners rounded by `radius` (limited to half the shorter side).
    static func addRoundedRect(_ cr: OpaquePointer, _ rect: Rect, radius: Double) {
        let r = max(0, min(radius, rect.width / 2, rect.height / 2))
        guard r > 0 else {
            cairo_rectangle(cr, rect.x, rect.y, rect.width, rect.height)
            return
        }
        let quarter = Double.pi / 2
        cairo_new_sub_path(cr)
        cairo_arc(cr, rect.maxX - r, rect.y + r, r, -quarter, 0)
        cairo_arc(cr, rect.maxX - r, rect.maxY - r, r, 0, quarter)
        cairo_arc(cr, rect.x + r, rect.maxY - r, r, quarter, 2 * quarter)
        cairo_arc(cr, rect.x + r, rect.y + r, r, 2 * quarter, 3 * quarter)
        cairo_close_path(cr)
    }

    /// Adds the ellipse inscribed in `rect`.
    static func addEllipse(_ cr: OpaquePointer, _ rect: Rect) {
        cairo_save(cr)
        cairo_translate(cr, rect.x + rect.width / 2, rect.y + rect.height / 2)
        cairo_scale(cr, rect.width / 2, rect.height / 2)
        cairo_arc(cr, 0, 0, 1, 0, 2 * Double.pi)
        cairo_restore(cr)
    }

    /// Strokes the current path centred on it. Round joins keep glyph outlines free of
    /// spikes; a rectangle's miter joins reach exactly half the width past its corners.
    static func stroke(_ cr: OpaquePointer, _ stroke: Stroke, lineWidth: Double, roundJoins: Bool) {
        cairo_set_line_width(cr, lineWidth)
        cairo_set_line_join(cr, roundJoins ? CAIRO_LINE_JOIN_ROUND : CAIRO_LINE_JOIN_MITER)
        setSource(cr, stroke.color)
        cairo_stroke(cr)
    }
}
