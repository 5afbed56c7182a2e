internal import CCairo
import CompositionGraph

/// Something drawn from a file at a natural size: a raster image or an SVG document.
protocol Picture: AnyObject {
    var naturalWidth: Double { get }
    var naturalHeight: Double { get }
    /// Draws the picture into (0, 0)–(naturalWidth, naturalHeight) of `cr`'s user space.
    func draw(_ cr: OpaquePointer)
}

/// An image or SVG layer: the picture fitted into the layer's box.
///
/// Box: the natural size, or `width`/`height` (a missing side follows the picture's aspect
/// ratio). With both sides given, `layer.fit` says how the picture fills the box.
final class PictureContent: LayerContent {
    let picture: any Picture
    let boxWidth: Double
    let boxHeight: Double
    /// Where the picture's natural rectangle lands in the box.
    let placed: Rect
    /// True when the picture may spill out of the box (cover, none) and is cut to it.
    let clipsToBox: Bool

    init(_ picture: any Picture, layer: OverlayLayer) {
        self.picture = picture
        let nw = picture.naturalWidth, nh = picture.naturalHeight
        switch (layer.width, layer.height) {
        case (nil, nil): (boxWidth, boxHeight) = (nw, nh)
        case (let w?, nil): (boxWidth, boxHeight) = (w, w * nh / nw)
        case (nil, let h?): (boxWidth, boxHeight) = (h * nw / nh, h)
        case (let w?, let h?): (boxWidth, boxHeight) = (w, h)
        }
        let fill = (boxWidth / nw, boxHeight / nh)
        let (sx, sy): (Double, Double)
        switch layer.fit {
        case .fill: (sx, sy) = fill
        case .contain: (sx, sy) = (min(fill.0, fill.1), min(fill.0, fill.1))
        case .cover: (sx, sy) = (max(fill.0, fill.1), max(fill.0, fill.1))
        case .none: (sx, sy) = (1, 1)
        }
        placed = Rect(x: (boxWidth - nw * sx) / 2, y: (boxHeight - nh * sy) / 2, width: nw * sx, height: nh * sy)
        clipsToBox = layer.fit == .cover || layer.fit == .none
    }

    private var box: Rect { Rect(x: 0, y: 0, width: boxWidth, height: boxHeight) }
    var inkBounds: Rect { clipsToBox ? placed.intersection(box) : placed }
    var shadow: Shadow? { nil }

    func draw(_ cr: OpaquePointer) {
        guard placed.width > 0, placed.height > 0 else { return }
        cairo_save(cr)
        if clipsToBox {
            cairo_rectangle(cr, 0, 0, boxWidth, boxHeight)
            cairo_clip(cr)
        }
        cairo_translate(cr, placed.x, placed.y)
        cairo_scale(cr, placed.width / picture.naturalWidth, placed.height / picture.naturalHeight)
        picture.draw(cr)
        cairo_restore(cr)
    }
}
