internal import CCairo
import CompositionGraph
import PortableMath

/// A rectangle (optionally with rounded corners) or an ellipse filling the layer's box, with a
/// colour or linear-gradient fill and a stroke centred on its outline, drawn over the fill.
final class ShapeContent: LayerContent {
    let style: ShapeStyle
    let isEllipse: Bool
    let boxWidth: Double
    let boxHeight: Double

    /// A missing side equals the other (a square or a circle).
    init(style: ShapeStyle, isEllipse: Bool, width: Double?, height: Double?) throws(OverlayError) {
        guard let side = width ?? height else { throw OverlayError(.shapeNeedsSize) }
        self.style = style
        self.isEllipse = isEllipse
        boxWidth = width ?? side
        boxHeight = height ?? side
    }

    var box: Rect { Rect(x: 0, y: 0, width: boxWidth, height: boxHeight) }
    var inkBounds: Rect { box.expanded(by: (style.stroke?.width ?? 0) / 2) }
    var shadow: Shadow? { nil }

    func draw(_ cr: OpaquePointer) {
        guard boxWidth > 0, boxHeight > 0 else { return }
        cairo_new_path(cr)
        addOutline(cr)
        if let fill = style.fill {
            setSource(cr, fill)
            cairo_fill_preserve(cr)
        }
        if let stroke = style.stroke, stroke.width > 0 {
            CairoDrawing.stroke(cr, stroke, lineWidth: stroke.width, roundJoins: isEllipse || style.cornerRadius > 0)
        }
        cairo_new_path(cr)
    }

    private func addOutline(_ cr: OpaquePointer) {
        if isEllipse { CairoDrawing.addEllipse(cr, box) } else { CairoDrawing.addRoundedRect(cr, box, radius: style.cornerRadius) }
    }

    private func setSource(_ cr: OpaquePointer, _ fill: Fill) {
        switch fill {
        case .color(let color):
            CairoDrawing.setSource(cr, color)
        case .linearGradient(let angle, let stops):
            // CSS geometry: the gradient line crosses the box centre at `angle`, long enough
            // for the first and last stops to touch the box's far corners.
            let (cosine, sine) = PortableMath.cosineAndSine(degrees: angle)
            let half = abs(boxWidth / 2 * cosine) + abs(boxHeight / 2 * sine)
            let cx = boxWidth / 2, cy = boxHeight / 2
            let pattern = cairo_pattern_create_linear(cx - cosine * half, cy - sine * half, cx + cosine * half, cy + sine * half)
            for stop in stops {
                cairo_pattern_add_color_stop_rgba(pattern, stop.offset, stop.color.red, stop.color.green, stop.color.blue, stop.color.alpha)
            }
            cairo_set_source(cr, pattern)
            cairo_pattern_destroy(pattern)
        }
    }
}
