/// A whole frame as a transition reads and writes it: premultiplied R′G′B′A in 0…1, one
/// `SIMD4<Float>` a pixel, rows from the top.
public final class TransitionPicture: @unchecked Sendable {
    public let width: Int
    public let height: Int
    public let pixels: UnsafeMutablePointer<SIMD4<Float>>

    /// A transparent picture.
    public init(width: Int, height: Int) {
        precondition(width > 0 && height > 0, "a transition picture needs a positive size, not \(width)x\(height)")
        self.width = width
        self.height = height
        pixels = .allocate(capacity: width * height)
        pixels.initialize(repeating: .zero, count: width * height)
    }

    deinit { pixels.deallocate() }

    /// The colour at `uv` ((0, 0) bottom-left, (1, 1) top-right), bilinear between pixel
    /// centres and clamped at the edges, as a GL texture with linear filtering and
    /// CLAMP_TO_EDGE reads it.
    @inline(__always) public func color(_ uv: SIMD2<Float>) -> SIMD4<Float> {
        let x = min(max(uv.x * Float(width) - 0.5, 0), Float(width - 1))
        let y = min(max((1 - uv.y) * Float(height) - 0.5, 0), Float(height - 1))
        guard x.isFinite, y.isFinite else { return pixels[0] }
        let x0 = Int(x), y0 = Int(y)
        let x1 = min(x0 + 1, width - 1), y1 = min(y0 + 1, height - 1)
        let fx = x - Float(x0), fy = y - Float(y0)
        let top = pixels[y0 * width + x0] * (1 - fx) + pixels[y0 * width + x1] * fx
        let bottom = pixels[y1 * width + x0] * (1 - fx) + pixels[y1 * width + x1] * fx
        return top * (1 - fy) + bottom * fy
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
