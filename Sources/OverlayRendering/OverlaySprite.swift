internal import CCairo

/// A layer drawn for one frame: premultiplied pixels, where they go, and how opaque.
public struct OverlaySprite: Sendable {
    public let pixels: SpritePixels
    /// Top-left corner in output pixels.
    public let x: Int
    public let y: Int
    /// Multiply every pixel (all four channels, they are premultiplied) by this, in (0, 1].
    public let opacity: Double

    public var width: Int { pixels.width }
    public var height: Int { pixels.height }
}

/// A sprite's pixels: premultiplied 8-bit BGRA, i.e. Cairo's ARGB32 (native-endian 32-bit
/// words 0xAARRGGBB, bytes B, G, R, A on little-endian machines), rows `stride` bytes apart.
///
/// Never changed once handed out: the renderer redraws a buffer only while it holds the
/// last reference, so a sprite may be read on any thread.
///
/// @unchecked: it owns a Cairo surface (a C pointer), read-only once handed out (above).
public final class SpritePixels: @unchecked Sendable {
    let surface: OpaquePointer
    public let width: Int
    public let height: Int
    public let stride: Int

    init(width: Int, height: Int) {
        surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, Int32(width), Int32(height))
        precondition(cairo_surface_status(surface) == CAIRO_STATUS_SUCCESS, "cannot allocate a \(width)x\(height) sprite")
        self.width = width
        self.height = height
        stride = Int(cairo_image_surface_get_stride(surface))
    }

    deinit { cairo_surface_destroy(surface) }

    /// The `stride × height` bytes of the pixels.
    public func withUnsafeBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        try body(UnsafeRawBufferPointer(start: cairo_image_surface_get_data(surface), count: stride * height))
    }

    /// Makes every pixel transparent, for redrawing.
    func clear() {
        cairo_surface_flush(surface)
        cairo_image_surface_get_data(surface).update(repeating: 0, count: stride * height)
        cairo_surface_mark_dirty(surface)
    }
}
