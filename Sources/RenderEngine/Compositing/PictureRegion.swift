import CompositionGraph

/// A rectangle of a layer's picture, in its pixels: columns `x0..<x1`, rows `y0..<y1`. The
/// looks change only the part of a picture that can show (a `cover`-fitted backdrop is mostly
/// outside the frame), plus what their own reach needs.
struct PictureRegion: Equatable, Sendable {
    var x0: Int, y0: Int, x1: Int, y1: Int

    /// The whole of a `width × height` picture.
    init(width: Int, height: Int) { (x0, y0, x1, y1) = (0, 0, width, height) }

    init(x0: Int, y0: Int, x1: Int, y1: Int) { (self.x0, self.y0, self.x1, self.y1) = (x0, y0, x1, y1) }

    var width: Int { x1 - x0 }
    var height: Int { y1 - y0 }

    /// Grown by `margin` on every side, on even pixels (so 4:2:0 chroma stays aligned), within
    /// a `width × height` picture.
    func grown(by margin: Int, within width: Int, _ height: Int) -> PictureRegion {
        PictureRegion(x0: max(0, (x0 - margin) & ~1), y0: max(0, (y0 - margin) & ~1),
                      x1: min(width, (x1 + margin + 1) & ~1), y1: min(height, (y1 + margin + 1) & ~1))
    }

    /// The same region in a 4:2:0 picture's chroma planes.
    var chroma: PictureRegion { PictureRegion(x0: x0 / 2, y0: y0 / 2, x1: (x1 + 1) / 2, y1: (y1 + 1) / 2) }
}

extension LayerPlacement {
    /// The part of a `pictureSize` picture of this layer that compositing can read in a
    /// `renderSize` frame: on the rectangle path exactly the rows and columns it copies; on the
    /// general path the picture pixels under the frame (within the crop) and two more on each
    /// side for bilinear sampling. Nil when the layer shows nothing.
    func visibleRegion(ofPicture pictureSize: PixelSize, in renderSize: PixelSize, rectangular: Bool) -> PictureRegion? {
        let whole = PictureRegion(width: pictureSize.width, height: pictureSize.height)
        if rectangular {
            guard let r = rectangle(in: renderSize) else { return nil }
            return PictureRegion(x0: r.visibleX0 - r.originX, y0: r.visibleY0 - r.originY,
                                 x1: r.visibleX1 - r.originX, y1: r.visibleY1 - r.originY)
        }
        guard let inverse = affine(pictureSize: pictureSize).inverse else { return nil }
        let w = Double(renderSize.width), h = Double(renderSize.height)
        let corners = [inverse.apply(0, 0), inverse.apply(w, 0), inverse.apply(0, h), inverse.apply(w, h)]
        let pw = Double(pictureSize.width), ph = Double(pictureSize.height)
        let u0 = max(corners.map(\.x).min()!, cropLeft * pw), u1 = min(corners.map(\.x).max()!, (1 - cropRight) * pw)
        let v0 = max(corners.map(\.y).min()!, cropTop * ph), v1 = min(corners.map(\.y).max()!, (1 - cropBottom) * ph)
        guard u0.isFinite, v0.isFinite, u1.isFinite, v1.isFinite, u0 < u1, v0 < v1 else { return nil }
        func clamped(_ v: Double, _ limit: Int) -> Int { Int(min(max(v, 0), Double(limit))) }
        let region = PictureRegion(x0: clamped(u0.rounded(.down), pictureSize.width), y0: clamped(v0.rounded(.down), pictureSize.height),
                                   x1: clamped(u1.rounded(.up), pictureSize.width), y1: clamped(v1.rounded(.up), pictureSize.height))
        return region.width > 0 && region.height > 0 ? region.grown(by: 2, within: whole.width, whole.height) : nil
    }
}
