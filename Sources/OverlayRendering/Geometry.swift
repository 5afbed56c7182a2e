internal import CCairo
import CompositionGraph
#if canImport(Glibc)
import Glibc
#endif
import MediaTime
import PortableMath

/// An axis-aligned rectangle in floating-point pixels.
struct Rect: Hashable {
    var x: Double
    var y: Double
    var width: Double
    var height: Double

    var maxX: Double { x + width }
    var maxY: Double { y + height }

    /// Grown by `d` on every side.
    func expanded(by d: Double) -> Rect { Rect(x: x - d, y: y - d, width: width + 2 * d, height: height + 2 * d) }
    func offsetBy(_ dx: Double, _ dy: Double) -> Rect { Rect(x: x + dx, y: y + dy, width: width, height: height) }

    /// The overlap, or an empty rectangle at this one's origin.
    func intersection(_ other: Rect) -> Rect {
        let minX = max(x, other.x), minY = max(y, other.y)
        return Rect(x: minX, y: minY, width: max(0, min(maxX, other.maxX) - minX), height: max(0, min(maxY, other.maxY) - minY))
    }

    func union(_ other: Rect) -> Rect {
        let minX = min(x, other.x), minY = min(y, other.y)
        return Rect(x: minX, y: minY, width: max(maxX, other.maxX) - minX, height: max(maxY, other.maxY) - minY)
    }
}

/// An integer pixel rectangle (a sprite's place in the frame).
struct PixelRect: Hashable {
    var x: Int
    var y: Int
    var width: Int
    var height: Int

    /// The pixels `rect` touches, cut to `0..<size`; nil when none is left.
    init?(covering rect: Rect, within size: PixelSize) {
        guard rect.x.isFinite, rect.y.isFinite, rect.maxX.isFinite, rect.maxY.isFinite else { return nil }
        // Clamped to the frame before converting, so no coordinate overflows an Int.
        func clamped(_ v: Double, _ limit: Int) -> Int { Int(min(max(v, 0), Double(limit))) }
        let x0 = clamped(rect.x.rounded(.down), size.width), y0 = clamped(rect.y.rounded(.down), size.height)
        let x1 = clamped(rect.maxX.rounded(.up), size.width), y1 = clamped(rect.maxY.rounded(.up), size.height)
        guard x1 > x0, y1 > y0 else { return nil }
        self.init(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    }

    init(x: Int, y: Int, width: Int, height: Int) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }
}

/// An affine map, Cairo's convention: x' = a·x + c·y + tx, y' = b·x + d·y + ty.
struct Affine: Hashable {
    var a = 1.0, b = 0.0, c = 0.0, d = 1.0, tx = 0.0, ty = 0.0

    func apply(_ x: Double, _ y: Double) -> (x: Double, y: Double) { (a * x + c * y + tx, b * x + d * y + ty) }

    /// The bounding box of `rect`'s four mapped corners.
    func bounds(of rect: Rect) -> Rect {
        let corners = [apply(rect.x, rect.y), apply(rect.maxX, rect.y), apply(rect.x, rect.maxY), apply(rect.maxX, rect.maxY)]
        let xs = corners.map(\.x), ys = corners.map(\.y)
        let minX = xs.min()!, minY = ys.min()!
        return Rect(x: minX, y: minY, width: xs.max()! - minX, height: ys.max()! - minY)
    }

    var cairo: cairo_matrix_t { cairo_matrix_t(xx: a, yx: b, xy: c, yy: d, x0: tx, y0: ty) }
}

/// Where a layer is at one time: the animated geometry of `OverlayLayer`, evaluated.
///
/// Two equal placements draw identical pixels, so a placement is the cache key of a sprite.
struct LayerPlacement: Hashable {
    var x: Double
    var y: Double
    var anchorX: Double
    var anchorY: Double
    var scale: Double
    /// Degrees, clockwise.
    var rotation: Double
    /// Fractions of the ink's bounds a wipe leaves (see `RevealBox`); nil: all of it.
    var reveal: Reveal?

    struct Reveal: Hashable {
        var left: Double, top: Double, right: Double, bottom: Double

        /// The part of `ink` left, in box units; nil when nothing is.
        func cut(_ ink: Rect) -> Rect? {
            let x0 = ink.x + max(left, 0) * ink.width, x1 = ink.x + min(right, 1) * ink.width
            let y0 = ink.y + max(top, 0) * ink.height, y1 = ink.y + min(bottom, 1) * ink.height
            guard x1 > x0, y1 > y0 else { return nil }
            return Rect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
        }

        var cutsNothing: Bool { left <= 0 && top <= 0 && right >= 1 && bottom >= 1 }
    }

    init(_ layer: OverlayLayer, at t: MediaTime) {
        x = layer.positionX.value(at: t)
        y = layer.positionY.value(at: t)
        anchorX = layer.anchorX.value(at: t)
        anchorY = layer.anchorY.value(at: t)
        scale = layer.scale.value(at: t)
        rotation = layer.rotation.value(at: t)
        if let r = layer.reveal {
            let reveal = Reveal(left: r.left.value(at: t), top: r.top.value(at: t), right: r.right.value(at: t), bottom: r.bottom.value(at: t))
            self.reveal = reveal.cutsNothing ? nil : reveal
        }
    }

    /// Box coordinates → frame pixels: the anchor point of a `width`×`height` box lands on
    /// (x, y), scaled and rotated (clockwise on screen, y pointing down) about it.
    func transform(boxWidth: Double, boxHeight: Double) -> Affine {
        let (unitCosine, unitSine) = PortableMath.cosineAndSine(degrees: rotation)
        let cosine = unitCosine * scale, sine = unitSine * scale
        let ax = anchorX * boxWidth, ay = anchorY * boxHeight
        return Affine(a: cosine, b: sine, c: -sine, d: cosine,
                      tx: x - (cosine * ax - sine * ay), ty: y - (sine * ax + cosine * ay))
    }

    /// The factor lengths are multiplied by (blur radii follow it).
    var lengthScale: Double { abs(scale) }
}


