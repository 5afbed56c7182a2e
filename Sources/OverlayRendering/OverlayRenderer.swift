internal import CCairo
import CompositionGraph
import MediaTime

/// Draws a graph's overlay layers (AVVideoCompositionCoreAnimationTool's job) for any frame.
///
/// Files are loaded, fonts checked and text laid out once, at init. Each layer's sprite is
/// cached with the placement it was drawn at: a layer whose geometry does not change (static,
/// or only its opacity animates) is rasterised once and the same pixels are handed out every
/// frame; animated position, anchor, scale or rotation re-rasterise when the value changes, and
/// so does a text entering or leaving by unit while any of its units is not at rest. A
/// layer outside its time range, below half an 8-bit step of opacity or entirely off the frame
/// costs nothing.
///
/// Not thread-safe: call from one thread at a time (the sprites themselves are `Sendable`).
public final class OverlayRenderer {
    public let renderSize: PixelSize
    /// The fonts text layers use: the machine's plus the project's files.
    public let fonts: FontCatalog
    private let slots: [LayerSlot]

    /// Loads every layer's files and registers `fonts` (font file paths) for this renderer.
    /// Throws for a missing or unreadable file, an unknown font family, or a layer that
    /// cannot be drawn as described; the error names the overlay by its index.
    public init(layers: [OverlayLayer], fonts fontFiles: [String], renderSize: PixelSize) throws(OverlayError) {
        self.renderSize = renderSize
        fonts = try FontCatalog(fontFiles: fontFiles)
        var slots: [LayerSlot] = []
        for (index, layer) in layers.enumerated() {
            do {
                slots.append(LayerSlot(layer: layer, content: try LayerContentFactory.make(layer, fonts: fonts)))
            } catch {
                throw OverlayError(error.reason, layerIndex: index)
            }
        }
        self.slots = slots
    }

    /// The layers with visible pixels at `t`, bottom to top.
    public func sprites(at t: MediaTime) -> [OverlaySprite] {
        slots.compactMap { $0.sprite(at: t, frame: renderSize) }
    }

    /// Draws `sprites(at: t)` over a premultiplied BGRA frame (Cairo ARGB32) in place.
    /// `stride` is the distance between rows in bytes (at least `4 × width`, a multiple of 4).
    public func composite(into frame: UnsafeMutableRawPointer, width: Int, height: Int, stride: Int, at t: MediaTime) {
        precondition(width > 0 && height > 0 && stride >= 4 * width && stride % 4 == 0,
                     "composite: a \(width)x\(height) BGRA frame needs a stride ≥ \(4 * width) and a multiple of 4, got \(stride)")
        var target: (surface: OpaquePointer, cr: OpaquePointer)?
        for slot in slots {
            guard let sprite = slot.sprite(at: t, frame: renderSize) else { continue }
            if target == nil {
                let surface = cairo_image_surface_create_for_data(frame.assumingMemoryBound(to: UInt8.self), CAIRO_FORMAT_ARGB32,
                                                                  Int32(width), Int32(height), Int32(stride))!
                target = (surface, cairo_create(surface)!)
            }
            let cr = target!.cr
            // Whole-pixel offsets: Cairo copies the sprite's rectangle without resampling.
            cairo_set_source_surface(cr, sprite.pixels.surface, Double(sprite.x), Double(sprite.y))
            if sprite.opacity >= 1 { cairo_paint(cr) } else { cairo_paint_with_alpha(cr, sprite.opacity) }
        }
        if let (surface, cr) = target {
            cairo_destroy(cr)
            cairo_surface_flush(surface)
            cairo_surface_destroy(surface)
        }
    }

    /// Test hook: the content a layer was built into.
    func content(ofLayer index: Int) -> any LayerContent { slots[index].content }
}

/// One layer and its last sprite.
private final class LayerSlot {
    /// What a sprite is drawn from: the layer's placement and its text's units' poses.
    private struct Key: Hashable {
        var placement: LayerPlacement
        var units: TextUnitPhase.Unit?
        var poses: [UnitPose]
    }

    let layer: OverlayLayer
    let content: any LayerContent
    private var cachedKey: Key?
    private var cached: LayerRasterizer.Result?

    init(layer: OverlayLayer, content: any LayerContent) {
        self.layer = layer
        self.content = content
    }

    func sprite(at t: MediaTime, frame: PixelSize) -> OverlaySprite? {
        guard layer.timeRange.contains(t) else { return nil }
        let opacity = min(layer.opacity.value(at: t), 1)
        // Below half an 8-bit step no pixel can change (an eased curve may leave 1e-25 at its start).
        guard opacity * 255 >= 0.5 else { return nil }
        let placement = LayerPlacement(layer, at: t)
        // A text entering or leaving by unit: every unit's pose now (nil when all rest).
        let text = content as? any UnitDrawable
        let posed = text.flatMap { text in layer.textUnits?.frame(at: t) { text.units(by: $0).count } }
        let key = Key(placement: placement, units: posed?.by, poses: posed?.poses ?? [])
        if key != cachedKey {
            var reusable = cached?.pixels
            cached = nil
            let drawn: any LayerContent = if let text, let posed { PosedUnits(text, by: posed.by, poses: posed.poses) } else { content }
            cached = LayerRasterizer.rasterize(drawn, at: placement, frame: frame, reusing: &reusable)
            cachedKey = key
        }
        guard let cached else { return nil }
        return OverlaySprite(pixels: cached.pixels, x: cached.origin.x, y: cached.origin.y, opacity: opacity)
    }
}
