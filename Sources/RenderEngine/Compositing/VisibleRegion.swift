import CompositionGraph
import LookKernels

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
