/// A rectangle of a layer's picture, in its pixels: columns `x0..<x1`, rows `y0..<y1`. The
/// looks change only the part of a picture that can show (a `cover`-fitted backdrop is mostly
/// outside the frame), plus what their own reach needs.
public struct PictureRegion: Equatable, Sendable {
    public var x0: Int, y0: Int, x1: Int, y1: Int

    /// The whole of a `width × height` picture.
    public init(width: Int, height: Int) { (x0, y0, x1, y1) = (0, 0, width, height) }

    public init(x0: Int, y0: Int, x1: Int, y1: Int) { (self.x0, self.y0, self.x1, self.y1) = (x0, y0, x1, y1) }

    public var width: Int { x1 - x0 }
    public var height: Int { y1 - y0 }

    /// Grown by `margin` on every side, on even pixels (so 4:2:0 chroma stays aligned), within
    /// a `width × height` picture.
    public func grown(by margin: Int, within width: Int, _ height: Int) -> PictureRegion {
        PictureRegion(x0: max(0, (x0 - margin) & ~1), y0: max(0, (y0 - margin) & ~1),
                      x1: min(width, (x1 + margin + 1) & ~1), y1: min(height, (y1 + margin + 1) & ~1))
    }

    /// The same region in a 4:2:0 picture's chroma planes.
    public var chroma: PictureRegion { PictureRegion(x0: x0 / 2, y0: y0 / 2, x1: (x1 + 1) / 2, y1: (y1 + 1) / 2) }
}
