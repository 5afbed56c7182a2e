/// A whole frame as a transition reads and writes it: premultiplied R′G′B′A in 0…1, one
/// `SIMD4<Float>` a pixel, rows from the top.
public final class TransitionPicture: @unchecked Sendable {
    public let width: Int
    public let height: Int
    public let pixels: UnsafeMutablePointer<SIMD4<Float>>
    /// The width and the height as `Float`, and the last column's and row's index: what `color`
    /// scales and clamps by (worked out once, not at every read).
    let columns: Float, rows: Float, lastColumn: Float, lastRow: Float

    /// A transparent picture.
    public init(width: Int, height: Int) {
        precondition(width > 0 && height > 0, "a transition picture needs a positive size, not \(width)x\(height)")
        self.width = width
        self.height = height
        columns = Float(width)
        rows = Float(height)
        lastColumn = Float(width - 1)
        lastRow = Float(height - 1)
        pixels = .allocate(capacity: width * height)
        pixels.initialize(repeating: .zero, count: width * height)
    }

    deinit { pixels.deallocate() }

    /// The colour at `uv` ((0, 0) bottom-left, (1, 1) top-right), bilinear between pixel
    /// centres and clamped at the edges, as a GL texture with linear filtering and
    /// CLAMP_TO_EDGE reads it.
    @inline(__always) public func color(_ uv: SIMD2<Float>) -> SIMD4<Float> {
        let x = min(max(uv.x * columns - 0.5, 0), lastColumn)
        let y = min(max((1 - uv.y) * rows - 0.5, 0), lastRow)
        guard x.isFinite, y.isFinite else { return pixels[0] }
        return sample(x, y)
    }

    /// The colour bilinear at column `x`, row `y` from the top (pixel centres at whole
    /// numbers), for 0 ≤ x ≤ width − 1 and 0 ≤ y ≤ height − 1: `color` once it has clamped.
    /// In range, the indices cannot overflow, so they are computed with wrapping arithmetic.
    @inline(__always) func sample(_ x: Float, _ y: Float) -> SIMD4<Float> {
        let x0 = Int(x), y0 = Int(y)
        let fx = x - Float(x0), fy = y - Float(y0)
        let p = pixels + (y0 &* width &+ x0)
        let right = x0 < width &- 1 ? 1 : 0, below = y0 < height &- 1 ? width : 0
        let top = p[0] * (1 - fx) + p[right] * fx
        let bottom = p[below] * (1 - fx) + p[below &+ right] * fx
        return top * (1 - fy) + bottom * fy
    }

    /// `sample` for 0 ≤ x < width − 1 and 0 ≤ y < height − 1, where the pixel to the right and
    /// the one below exist: no bounds to test, each interpolation one subtraction, one
    /// multiplication and one addition (what a kernel reading many points well inside the
    /// picture runs; the same value as `sample` to Float rounding).
    @inline(__always) func interiorSample(_ x: Float, _ y: Float) -> SIMD4<Float> {
        let x0 = Int(x), y0 = Int(y)
        let fx = x - Float(x0), fy = y - Float(y0)
        let p = pixels + (y0 &* width &+ x0)
        let top = p[0] + (p[1] - p[0]) * fx
        let bottom = p[width] + (p[width &+ 1] - p[width]) * fx
        return top + (bottom - top) * fy
    }

    /// The pixel at column `x`, row `y` from the top.
    public subscript(x: Int, y: Int) -> SIMD4<Float> {
        get { pixels[y * width + x] }
        set { pixels[y * width + x] = newValue }
    }
}

/// Pictures are the same when they are one picture (a transition's parameters compare so).
extension TransitionPicture: Hashable {
    public static func == (a: TransitionPicture, b: TransitionPicture) -> Bool { a === b }
    public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }
}
