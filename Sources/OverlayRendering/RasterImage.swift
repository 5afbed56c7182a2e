internal import CCairo

/// A PNG or JPEG (any format gdk-pixbuf reads) decoded once into a premultiplied Cairo surface,
/// turned upright by its EXIF orientation, and drawn scaled with Cairo's GOOD filter (a box
/// filter when shrinking, bilinear when enlarging).
final class RasterImage: Picture {
    let surface: OpaquePointer
    let naturalWidth: Double
    let naturalHeight: Double
    let hasAlpha: Bool

    private init(surface: OpaquePointer, hasAlpha: Bool) {
        self.surface = surface
        self.hasAlpha = hasAlpha
        naturalWidth = Double(cairo_image_surface_get_width(surface))
        naturalHeight = Double(cairo_image_surface_get_height(surface))
    }

    deinit { cairo_surface_destroy(surface) }

    static func load(_ path: String) throws(OverlayError) -> RasterImage {
        try ImageLimits.check(path)
        var error: UnsafeMutablePointer<GError>?
        guard let loaded = gdk_pixbuf_new_from_file(path, &error) else {
            throw OverlayError(.unreadableImage(path: path, detail: GLibError.take(&error)))
        }
        defer { releaseGObject(loaded) }
        guard let upright = gdk_pixbuf_apply_embedded_orientation(loaded) else {
            throw OverlayError(.unreadableImage(path: path, detail: "cannot apply its EXIF orientation"))
        }
        defer { releaseGObject(upright) }
        return RasterImage(surface: premultipliedSurface(upright), hasAlpha: gdk_pixbuf_get_has_alpha(upright) != 0)
    }

    /// Copies straight-alpha RGB(A) bytes into Cairo's premultiplied native-endian ARGB32.
    private static func premultipliedSurface(_ pixbuf: OpaquePointer) -> OpaquePointer {
        let width = Int(gdk_pixbuf_get_width(pixbuf)), height = Int(gdk_pixbuf_get_height(pixbuf))
        let channels = Int(gdk_pixbuf_get_n_channels(pixbuf)), hasAlpha = gdk_pixbuf_get_has_alpha(pixbuf) != 0
        let sourceStride = Int(gdk_pixbuf_get_rowstride(pixbuf))
        let source = gdk_pixbuf_read_pixels(pixbuf)!
        let surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, Int32(width), Int32(height))!
        precondition(cairo_surface_status(surface) == CAIRO_STATUS_SUCCESS, "cannot allocate a \(width)x\(height) image")
        let targetStride = Int(cairo_image_surface_get_stride(surface))
        let target = UnsafeMutableRawPointer(cairo_image_surface_get_data(surface)!)
        for y in 0..<height {
            let row = source + y * sourceStride
            let out = (target + y * targetStride).assumingMemoryBound(to: UInt32.self)
            for x in 0..<width {
                let p = row + x * channels
                let a = hasAlpha ? UInt32(p[3]) : 255
                func premultiplied(_ c: UInt8) -> UInt32 { (UInt32(c) * a + 127) / 255 }
                out[x] = a << 24 | premultiplied(p[0]) << 16 | premultiplied(p[1]) << 8 | premultiplied(p[2])
            }
        }
        cairo_surface_mark_dirty(surface)
        return surface
    }

    func draw(_ cr: OpaquePointer) {
        cairo_set_source_surface(cr, surface, 0, 0)
        let pattern = cairo_get_source(cr)
        cairo_pattern_set_filter(pattern, CAIRO_FILTER_GOOD)
        // Edge pixels repeat outward, so the filter does not fade the image's border.
        cairo_pattern_set_extend(pattern, CAIRO_EXTEND_PAD)
        cairo_rectangle(cr, 0, 0, naturalWidth, naturalHeight)
        cairo_fill(cr)
    }
}
