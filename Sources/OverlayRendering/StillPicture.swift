internal import CCairo
import CompositionGraph
import Foundation

/// A still picture file, read the one way Reel reads stills wherever they are shown (as a
/// clip or as an overlay) and wherever they are checked (the media facts): an SVG document by
/// librsvg, anything else by gdk-pixbuf, turned upright by its EXIF orientation.
public final class StillPicture {
    public enum Format: Sendable { case raster, svg }

    public let format: Format
    let picture: any Picture
    /// Whether the picture can be transparent anywhere (always for SVG).
    public let hasAlpha: Bool

    /// Reads and decodes the file. Throws `OverlayError.unreadableImage` naming the file.
    public init(path: String) throws(OverlayError) {
        if Self.looksLikeSVG(path) {
            format = .svg
            picture = try SVGDocument.load(path)
            hasAlpha = true
        } else {
            let image = try RasterImage.load(path)
            format = .raster
            picture = image
            hasAlpha = image.hasAlpha
        }
    }

    /// The picture's own size in whole pixels (an SVG's intrinsic size rounded, at least 1).
    public var naturalSize: PixelSize {
        PixelSize(width: max(1, Int(picture.naturalWidth.rounded())), height: max(1, Int(picture.naturalHeight.rounded())))
    }

    /// Draws the whole picture stretched to `width × height` into premultiplied BGRA memory
    /// (Cairo's native-endian ARGB32), replacing what was there. `stride` is the distance
    /// between rows in bytes (at least `4 × width`, a multiple of 4).
    public func draw(into pixels: UnsafeMutableRawPointer, width: Int, height: Int, stride: Int) {
        precondition(width > 0 && height > 0 && stride >= 4 * width && stride % 4 == 0,
                     "StillPicture.draw: a \(width)x\(height) BGRA target needs a stride ≥ \(4 * width) and a multiple of 4, got \(stride)")
        let surface = cairo_image_surface_create_for_data(pixels.assumingMemoryBound(to: UInt8.self), CAIRO_FORMAT_ARGB32,
                                                          Int32(width), Int32(height), Int32(stride))!
        let cr = cairo_create(surface)!
        defer {
            cairo_destroy(cr)
            cairo_surface_destroy(surface)
        }
        cairo_set_operator(cr, CAIRO_OPERATOR_CLEAR)
        cairo_paint(cr)
        cairo_set_operator(cr, CAIRO_OPERATOR_OVER)
        cairo_scale(cr, Double(width) / picture.naturalWidth, Double(height) / picture.naturalHeight)
        picture.draw(cr)
        cairo_surface_flush(surface)
    }

    /// An `.svg`/`.svgz` name, or a file that starts with `<` (after a BOM and white space):
    /// raster formats all start with binary magic numbers.
    static func looksLikeSVG(_ path: String) -> Bool {
        let ext = URL(fileURLWithPath: path).pathExtension.lowercased()
        if ext == "svg" || ext == "svgz" { return true }
        guard let handle = FileHandle(forReadingAtPath: path) else { return false }
        defer { try? handle.close() }
        let head = [UInt8]((try? handle.read(upToCount: 256)) ?? Data())
        var bytes = head[...]
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes = bytes.dropFirst(3) }
        return bytes.first { ![0x20, 0x09, 0x0A, 0x0D].contains($0) } == UInt8(ascii: "<")
    }
}
