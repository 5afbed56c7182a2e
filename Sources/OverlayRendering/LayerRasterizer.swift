internal import CCairo
import CompositionGraph

/// Draws a layer's content at one placement into a sprite covering exactly the frame pixels
/// its ink (and shadow) can touch.
enum LayerRasterizer {
    struct Result {
        var pixels: SpritePixels
        var origin: PixelRect
    }

    /// nil when nothing of the layer falls inside the frame. `reusable` is taken and redrawn
    /// when it has the right size and no one else holds it.
    static func rasterize(_ content: any LayerContent, at placement: LayerPlacement, frame: PixelSize,
                          reusing reusable: inout SpritePixels?) -> Result? {
        guard placement.scale != 0, content.boxWidth.isFinite, content.boxHeight.isFinite else { return nil }
        let transform = placement.transform(boxWidth: content.boxWidth, boxHeight: content.boxHeight)
        // A wipe cuts the ink (and so the shadow it casts) to a rectangle of the box.
        var ink = content.inkBounds
        if let reveal = placement.reveal {
            guard let left = reveal.cut(ink) else { return nil }
            ink = left
        }
        let clip = placement.reveal == nil ? nil : ink
        var bounds = transform.bounds(of: ink)
        var shadowBlur = AlphaBlur(sigma: 0)
        if let shadow = content.shadow {
            // `blur` is a CSS blur radius: twice the Gaussian's standard deviation.
            shadowBlur = AlphaBlur(sigma: shadow.blur / 2 * placement.lengthScale)
            let cast = transform.bounds(of: ink.offsetBy(shadow.offsetX, shadow.offsetY))
            bounds = bounds.union(cast.expanded(by: Double(shadowBlur.extent)))
        }
        guard let area = PixelRect(covering: bounds, within: frame) else { return nil }
        let pixels = buffer(width: area.width, height: area.height, reusing: &reusable)
        // Frame pixels → sprite pixels, after the layer's own transform.
        var toSprite = transform
        toSprite.tx -= Double(area.x)
        toSprite.ty -= Double(area.y)

        let cr = cairo_create(pixels.surface)!
        defer { cairo_destroy(cr) }
        if let shadow = content.shadow {
            drawShadow(shadow, of: content, clippedTo: clip, transform: toSprite, blur: shadowBlur, into: cr, area: area)
        }
        var matrix = toSprite.cairo
        cairo_set_matrix(cr, &matrix)
        if let clip { clipping(cr, to: clip) }
        content.draw(cr)
        cairo_surface_flush(pixels.surface)
        return Result(pixels: pixels, origin: area)
    }

    /// The content's alpha, moved by the shadow offset (in box units, so it turns and scales
    /// with the layer), blurred, and painted in the shadow colour.
    private static func drawShadow(_ shadow: Shadow, of content: any LayerContent, clippedTo clip: Rect?, transform: Affine,
                                   blur: AlphaBlur, into cr: OpaquePointer, area: PixelRect) {
        let mask = cairo_image_surface_create(CAIRO_FORMAT_A8, Int32(area.width), Int32(area.height))!
        defer { cairo_surface_destroy(mask) }
        let maskContext = cairo_create(mask)!
        var matrix = transform.cairo
        cairo_set_matrix(maskContext, &matrix)
        cairo_translate(maskContext, shadow.offsetX, shadow.offsetY)
        if let clip { clipping(maskContext, to: clip) }
        content.draw(maskContext)
        cairo_destroy(maskContext)
        cairo_surface_flush(mask)
        blur.apply(cairo_image_surface_get_data(mask), width: area.width, height: area.height,
                   stride: Int(cairo_image_surface_get_stride(mask)))
        cairo_surface_mark_dirty(mask)
        CairoDrawing.setSource(cr, shadow.color)
        cairo_mask_surface(cr, mask, 0, 0)
    }

    /// Limits drawing to `rect` (user space), with an antialiased edge.
    private static func clipping(_ cr: OpaquePointer, to rect: Rect) {
        cairo_rectangle(cr, rect.x, rect.y, rect.width, rect.height)
        cairo_clip(cr)
    }

    private static func buffer(width: Int, height: Int, reusing reusable: inout SpritePixels?) -> SpritePixels {
        if var candidate = reusable, candidate.width == width, candidate.height == height {
            reusable = nil
            if isKnownUniquelyReferenced(&candidate) {
                candidate.clear()
                return candidate
            }
        }
        return SpritePixels(width: width, height: height)
    }
}
