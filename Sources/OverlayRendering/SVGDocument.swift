internal import CCairo
import Foundation

/// An SVG file parsed once by librsvg and drawn as vectors under the final transform, so it
/// stays sharp at any scale. It is handed to librsvg as bytes, without its file's location,
/// so it draws what it holds and nothing else: an `<image>` or `xi:include` naming another
/// file stays empty (a file nothing declares would escape the segment keys, the watcher and
/// the output checks, and could show any file of the folder), a `data:` URL draws.
final class SVGDocument: Picture {
    private let handle: UnsafeMutablePointer<RsvgHandle>
    let naturalWidth: Double
    let naturalHeight: Double

    private init(handle: UnsafeMutablePointer<RsvgHandle>, width: Double, height: Double) {
        self.handle = handle
        naturalWidth = width
        naturalHeight = height
    }

    deinit { g_object_unref(handle) }

    static func load(_ path: String) throws(OverlayError) -> SVGDocument {
        guard let bytes = FileManager.default.contents(atPath: path) else {
            throw OverlayError(.unreadableImage(path: path, detail: "cannot read the file"))
        }
        let elements = elementCount(bytes)
        guard elements <= maxElements else {
            throw OverlayError(.unreadableImage(path: path, detail: "the SVG has \(elements) elements, more than the \(maxElements) Reel draws "
                                                + "(librsvg takes seconds and hundreds of MB for each 100,000); simplify it, or render it to a PNG"))
        }
        var error: UnsafeMutablePointer<GError>?
        let made = bytes.withUnsafeBytes { raw in
            rsvg_handle_new_from_data(raw.baseAddress?.assumingMemoryBound(to: UInt8.self), gsize(raw.count), &error)
        }
        guard let handle = made else {
            throw OverlayError(.unreadableImage(path: path, detail: GLibError.take(&error)))
        }
        // Lengths in physical units (mm, pt) convert at CSS's 96 dpi, on every machine.
        rsvg_handle_set_dpi(handle, 96)
        guard let (width, height) = naturalSize(handle), width > 0, height > 0 else {
            g_object_unref(handle)
            throw OverlayError(.unreadableImage(path: path, detail: "the SVG has neither width/height nor a viewBox"))
        }
        let document = SVGDocument(handle: handle, width: width, height: height)
        try document.checkRenders(path)
        return document
    }

    /// Most elements drawn from one SVG. Logos and icons have hundreds, detailed illustrations
    /// a few thousand; 200,000 took librsvg 35 s and 519 MB for one frame.
    static let maxElements = 20_000

    /// Start tags in the text (`<` then a name's first character), counted before librsvg
    /// parses anything; a `<` in a comment or CDATA counts too, which errs on the safe side.
    static func elementCount(_ bytes: Data) -> Int {
        var count = 0, afterOpen = false
        for byte in bytes {
            if afterOpen, (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A) || byte == 0x5F || byte == 0x3A { count += 1 }
            afterOpen = byte == 0x3C
        }
        return count
    }

    /// The width/height attributes in pixels, else the viewBox's size.
    private static func naturalSize(_ handle: UnsafeMutablePointer<RsvgHandle>) -> (Double, Double)? {
        var width = 0.0, height = 0.0
        if rsvg_handle_get_intrinsic_size_in_pixels(handle, &width, &height) != 0 { return (width, height) }
        var hasViewBox: gboolean = 0
        var viewBox = RsvgRectangle()
        rsvg_handle_get_intrinsic_dimensions(handle, nil, nil, nil, nil, &hasViewBox, &viewBox)
        return hasViewBox != 0 ? (viewBox.width, viewBox.height) : nil
    }

    /// Renders once into a 1×1 surface, so a document librsvg cannot draw fails at load time.
    private func checkRenders(_ path: String) throws(OverlayError) {
        let surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, 1, 1)
        let cr = cairo_create(surface)
        defer { cairo_destroy(cr); cairo_surface_destroy(surface) }
        var error: UnsafeMutablePointer<GError>?
        if !render(cr!, &error) { throw OverlayError(.unreadableImage(path: path, detail: GLibError.take(&error))) }
    }

    private func render(_ cr: OpaquePointer, _ error: inout UnsafeMutablePointer<GError>?) -> Bool {
        var viewport = RsvgRectangle(x: 0, y: 0, width: naturalWidth, height: naturalHeight)
        return rsvg_handle_render_document(handle, cr, &viewport, &error) != 0
    }

    func draw(_ cr: OpaquePointer) {
        var error: UnsafeMutablePointer<GError>?
        // Drew fine at load time; a later failure leaves the layer empty rather than stopping a render.
        if !render(cr, &error) { _ = GLibError.take(&error) }
    }
}
