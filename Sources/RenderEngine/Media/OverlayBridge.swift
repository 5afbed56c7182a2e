import CompositionGraph
import MediaTime
import OverlayRendering

/// The overlay stage over OverlayRendering's `OverlayRenderer`: its sprites (premultiplied
/// BGRA, cached by the renderer while a layer's geometry stays the same), which the
/// compositing stage's `SpriteBlender` blends.
final class OverlayBridge: OverlayStage {
    private let renderer: OverlayRenderer
    private let layers: [OverlayLayer]

    /// nil when the graph has no overlays. Throws for files, fonts or layers the overlay
    /// module cannot draw (before the first frame).
    static func make(graph: CompositionGraph) throws -> OverlayBridge? {
        guard !graph.overlays.isEmpty else { return nil }
        do {
            return OverlayBridge(renderer: try OverlayRenderer(layers: graph.overlays, fonts: graph.fonts,
                                                               renderSize: graph.videoComposition.renderSize),
                                 layers: graph.overlays)
        } catch {
            throw RenderError.invalidSettings("overlay: \(error)")
        }
    }

    private init(renderer: OverlayRenderer, layers: [OverlayLayer]) {
        self.renderer = renderer
        self.layers = layers
    }

    func isVisible(at t: MediaTime) -> Bool {
        layers.contains { $0.timeRange.contains(t) && $0.opacity.value(at: t) * 255 >= 0.5 }
    }

    func sprites(at t: MediaTime, _ blend: (SpriteView) -> Void) throws {
        for sprite in renderer.sprites(at: t) {
            sprite.pixels.withUnsafeBytes { bytes in
                guard let base = bytes.baseAddress else { return }
                blend(SpriteView(owner: sprite.pixels, width: sprite.width, height: sprite.height, stride: sprite.pixels.stride,
                                 pixels: base, originX: sprite.x, originY: sprite.y, opacity: sprite.opacity))
            }
        }
    }
}
