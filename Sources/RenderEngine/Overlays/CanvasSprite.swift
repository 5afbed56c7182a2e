import LookKernels

/// A sprite as premultiplied Y′CbCrA 4:4:4 pixels (the canvas's channels, the standard's
/// offsets premultiplied too), for an output that keeps alpha: blended "over" the canvas
/// pixel by pixel with the general compositing path's rounding (`PremultipliedOver`).
final class CanvasSprite {
    /// Keeps the source pixels' owner alive (see `SpriteCache`).
    let owner: AnyObject
    private let image: PremultipliedImage

    init(_ s: SpriteView, matrix: YCbCrMatrix) {
        owner = s.owner
        image = PremultipliedImage(width: s.width, height: s.height)
        let bytes = s.pixels.assumingMemoryBound(to: UInt8.self)
        for y in 0..<s.height {
            for x in 0..<s.width {
                let p = bytes + y * s.stride + x * 4
                guard p[3] > 0 else { continue } // transparent: zero, as the image starts
                let c = matrix.premultipliedYCbCrA((r: p[2], g: p[1], b: p[0], a: p[3]))
                image.setPixel(x: x, y: y, (UInt8(c.y), UInt8(c.cb), UInt8(c.cr), UInt8(c.a)))
            }
        }
    }

    /// Blends the sprite with its top left pixel at (originX, originY), faded by `opacity`
    /// (1/256ths), over `canvas`; what falls outside the canvas is clipped.
    func blend(onto canvas: PremultipliedImage, originX: Int, originY: Int, opacity: Int) {
        let x0 = max(0, originX), x1 = min(canvas.width, originX + image.width)
        let y0 = max(0, originY), y1 = min(canvas.height, originY + image.height)
        guard x0 < x1, y0 < y1 else { return }
        let weight = UInt32(opacity) << 8
        for y in y0..<y1 {
            let source = image.pixels + (y - originY) * image.stride, row = canvas.pixels + y * canvas.stride
            for x in x0..<x1 {
                let p = source + (x - originX) * 4
                guard p[3] > 0 else { continue }
                PremultipliedOver.blend(row + x * 4, UInt32(p[0]), UInt32(p[1]), UInt32(p[2]), UInt32(p[3]), weight: weight)
            }
        }
    }
}
