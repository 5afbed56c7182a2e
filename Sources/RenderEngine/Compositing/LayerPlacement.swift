import Foundation
import CompositionGraph
import MediaTime
import PortableMath

/// Where one layer lands in the output at one instant: the fitted box, the transform's
/// values at that instant and the crop, all in output pixels.
///
/// A point `u` of the fitted box (box pixels, origin top left) lands at
/// `position + R(rotation) · S(scale) · (u − anchor)`; the crop keeps the part of the box
/// between the crop edges (fractions of the box) and cuts the rest away in place.
struct LayerPlacement: Equatable, Sendable {
    var boxWidth: Double
    var boxHeight: Double
    var anchorX: Double
    var anchorY: Double
    var positionX: Double
    var positionY: Double
    var scaleX: Double
    var scaleY: Double
    /// Degrees, clockwise.
    var rotation: Double
    var cropLeft: Double
    var cropTop: Double
    var cropRight: Double
    var cropBottom: Double

    /// The placement of a source of `sourceSize` (already oriented) by `layer` at `t`.
    init(layer: LayerInstruction, sourceSize: PixelSize, renderSize: PixelSize, at t: MediaTime) {
        let sw = Double(sourceSize.width), sh = Double(sourceSize.height)
        let rw = Double(renderSize.width), rh = Double(renderSize.height)
        switch layer.fit {
        case .contain:
            let s = min(rw / sw, rh / sh)
            (boxWidth, boxHeight) = (sw * s, sh * s)
        case .cover:
            let s = max(rw / sw, rh / sh)
            (boxWidth, boxHeight) = (sw * s, sh * s)
        case .fill:
            (boxWidth, boxHeight) = (rw, rh)
        case .none:
            (boxWidth, boxHeight) = (sw, sh)
        }
        let tr = layer.transform
        anchorX = tr.anchorX.value(at: t) * boxWidth
        anchorY = tr.anchorY.value(at: t) * boxHeight
        positionX = tr.positionX.value(at: t)
        positionY = tr.positionY.value(at: t)
        scaleX = tr.scaleX.value(at: t)
        scaleY = tr.scaleY.value(at: t)
        rotation = tr.rotation.value(at: t)
        func fraction(_ a: Animation) -> Double { min(max(a.value(at: t), 0), 1) }
        cropLeft = fraction(layer.crop.left)
        cropTop = fraction(layer.crop.top)
        cropRight = fraction(layer.crop.right)
        cropBottom = fraction(layer.crop.bottom)
    }

    /// True when the layer is an upright rectangle: no rotation (modulo 360°), no mirroring.
    var isAxisAligned: Bool {
        rotation.truncatingRemainder(dividingBy: 360) == 0 && scaleX > 0 && scaleY > 0
    }

    /// True when the crop leaves nothing.
    var isCroppedAway: Bool { cropLeft + cropRight >= 1 || cropTop + cropBottom >= 1 }

    /// The size of the box once scaled, in whole pixels (at least 1), for fetching a source
    /// picture to draw with the general path.
    var scaledPixelSize: PixelSize {
        PixelSize(width: max(1, Int((abs(scaleX) * boxWidth).rounded())),
                  height: max(1, Int((abs(scaleY) * boxHeight).rounded())))
    }

    /// The axis-aligned placement snapped to even pixels (so the 4:2:0 chroma planes stay
    /// exactly aligned), clipped to a `renderSize` frame; nil when nothing is visible.
    func rectangle(in renderSize: PixelSize) -> PlacedRectangle? {
        precondition(isAxisAligned, "rectangle(in:) of a rotated or mirrored layer")
        let width = Self.even(scaleX * boxWidth), height = Self.even(scaleY * boxHeight)
        guard width > 0, height > 0, !isCroppedAway else { return nil }
        let left = positionX - scaleX * anchorX, top = positionY - scaleY * anchorY
        let originX = Self.even(left), originY = Self.even(top)
        let x0 = max(0, Self.even(left + cropLeft * scaleX * boxWidth))
        let y0 = max(0, Self.even(top + cropTop * scaleY * boxHeight))
        let x1 = min(renderSize.width, Self.even(left + (1 - cropRight) * scaleX * boxWidth), originX + width)
        let y1 = min(renderSize.height, Self.even(top + (1 - cropBottom) * scaleY * boxHeight), originY + height)
        guard x0 < x1, y0 < y1 else { return nil }
        return PlacedRectangle(sourceWidth: width, sourceHeight: height, originX: originX, originY: originY,
                               visibleX0: max(x0, originX), visibleY0: max(y0, originY), visibleX1: x1, visibleY1: y1)
    }

    /// True when every edge of the upright rectangle (crop edges included) lies on an even
    /// pixel, so `rectangle(in:)` places it exactly.
    var isOnEvenPixels: Bool {
        let width = scaleX * boxWidth, height = scaleY * boxHeight
        let left = positionX - scaleX * anchorX, top = positionY - scaleY * anchorY
        func even(_ v: Double) -> Bool { abs(v - Double(Self.even(v))) < 1e-6 }
        return even(left) && even(top) && even(width) && even(height)
            && even(left + cropLeft * width) && even(top + cropTop * height)
            && even(left + (1 - cropRight) * width) && even(top + (1 - cropBottom) * height)
    }

    /// Nearest even integer (halves away from zero).
    static func even(_ v: Double) -> Int { 2 * Int((v / 2).rounded()) }

    /// The forward map from a source picture of `pictureSize` (covering the whole box) to
    /// output pixels.
    func affine(pictureSize: PixelSize) -> AffineTransform {
        let kx = boxWidth / Double(pictureSize.width), ky = boxHeight / Double(pictureSize.height)
        let (c, s) = PortableMath.cosineAndSine(degrees: rotation)
        // out = P + R · S · (k · src − A)
        let a = c * scaleX * kx, b = -s * scaleY * ky
        let d = s * scaleX * kx, e = c * scaleY * ky
        let tx = positionX - (c * scaleX * anchorX - s * scaleY * anchorY)
        let ty = positionY - (s * scaleX * anchorX + c * scaleY * anchorY)
        return AffineTransform(a: a, b: b, c: d, d: e, tx: tx, ty: ty)
    }
}

/// An upright placement in whole, even output pixels: the source scaled to
/// `sourceWidth × sourceHeight` with its top left corner at (`originX`, `originY`), of which
/// only `[visibleX0, visibleX1) × [visibleY0, visibleY1)` (inside the frame) is drawn.
struct PlacedRectangle: Equatable, Sendable {
    var sourceWidth: Int
    var sourceHeight: Int
    var originX: Int
    var originY: Int
    var visibleX0: Int
    var visibleY0: Int
    var visibleX1: Int
    var visibleY1: Int

    func covers(_ size: PixelSize) -> Bool {
        visibleX0 == 0 && visibleY0 == 0 && visibleX1 == size.width && visibleY1 == size.height
    }
}

/// `(x, y) ↦ (a·x + b·y + tx, c·x + d·y + ty)`.
struct AffineTransform: Equatable, Sendable {
    var a: Double, b: Double, c: Double, d: Double, tx: Double, ty: Double

    func apply(_ x: Double, _ y: Double) -> (x: Double, y: Double) { (a * x + b * y + tx, c * x + d * y + ty) }

    /// The inverse map; nil when the transform squashes the plane to a line.
    var inverse: AffineTransform? {
        let det = a * d - b * c
        guard det != 0, det.isFinite else { return nil }
        let ia = d / det, ib = -b / det, ic = -c / det, id = a / det
        return AffineTransform(a: ia, b: ib, c: ic, d: id, tx: -(ia * tx + ib * ty), ty: -(ic * tx + id * ty))
    }
}
