internal import CCairo
import CompositionGraph

/// A mask shape at one moment, in frame pixels, drawn by Cairo into an 8-bit coverage plane
/// (anti-aliased, nonzero fill) and feathered by the integer `AlphaBlur`: the same bytes on
/// every machine for the same Cairo.
public enum MaskOutline: Hashable, Sendable {
    case rect(x: Double, y: Double, width: Double, height: Double, cornerRadius: Double)
    case ellipse(x: Double, y: Double, width: Double, height: Double)
    case path(MaskPath, offsetX: Double, offsetY: Double)

    /// Coverage of every pixel of a `width × height` frame, rows `width` bytes apart:
    /// 255 inside, 0 outside; `feather` pixels of soft edge (see `feather(_:width:height:by:)`;
    /// outside the frame counts as uncovered).
    public func coverage(width: Int, height: Int, feather: Double) -> [UInt8] {
        let surface = cairo_image_surface_create(CAIRO_FORMAT_A8, Int32(width), Int32(height))!
        defer { cairo_surface_destroy(surface) }
        let cr = cairo_create(surface)!
        draw(cr)
        cairo_destroy(cr)
        cairo_surface_flush(surface)
        let data = cairo_image_surface_get_data(surface)!, stride = Int(cairo_image_surface_get_stride(surface))
        var plane = [UInt8](repeating: 0, count: width * height)
        plane.withUnsafeMutableBufferPointer { out in
            for y in 0..<height { (out.baseAddress! + y * width).update(from: data + y * stride, count: width) }
        }
        Self.feather(&plane, width: width, height: height, by: feather)
        return plane
    }

    /// Softens the edges of a coverage plane (rows `width` bytes apart) by `feather` pixels:
    /// a Gaussian blur of standard deviation feather / 2, in integers.
    public static func feather(_ plane: inout [UInt8], width: Int, height: Int, by feather: Double) {
        precondition(plane.count == width * height, "a coverage plane of \(width)x\(height) has \(width * height) bytes")
        guard feather > 0 else { return }
        plane.withUnsafeMutableBufferPointer { AlphaBlur(sigma: feather / 2).apply($0.baseAddress!, width: width, height: height, stride: width) }
    }

    private func draw(_ cr: OpaquePointer) {
        cairo_set_source_rgba(cr, 0, 0, 0, 1)
        switch self {
        case .rect(let x, let y, let w, let h, let radius):
            guard w > 0, h > 0 else { return }
            CairoDrawing.addRoundedRect(cr, Rect(x: x, y: y, width: w, height: h), radius: radius)
        case .ellipse(let x, let y, let w, let h):
            guard w > 0, h > 0 else { return }
            CairoDrawing.addEllipse(cr, Rect(x: x, y: y, width: w, height: h))
        case .path(let path, let dx, let dy):
            cairo_translate(cr, dx, dy)
            for command in path.commands {
                switch command {
                case .move(let x, let y): cairo_move_to(cr, x, y)
                case .line(let x, let y): cairo_line_to(cr, x, y)
                case .cubic(let x1, let y1, let x2, let y2, let x, let y): cairo_curve_to(cr, x1, y1, x2, y2, x, y)
                case .close: cairo_close_path(cr)
                }
            }
        }
        cairo_fill(cr)
    }
}
