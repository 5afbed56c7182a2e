import LookKernels
@testable import RenderEngine
import Testing
import TestSupport

@Suite struct SpriteBlenderTests {
    /// Blends one solid sprite (premultiplied BGRA bytes) over a black frame.
    func blendSolid(b: UInt8, g: UInt8, r: UInt8, a: UInt8, width: Int, height: Int, x: Int, y: Int,
                    opacity: Double, blender: SpriteBlender = SpriteBlender(),
                    frame: YUVFrame = solidFrame(width: 32, height: 16, YUVColor(y: 16, cb: 128, cr: 128))) -> YUVFrame {
        let owner = PremultipliedImage(width: 1, height: 1)
        var bytes = [UInt8](repeating: 0, count: width * height * 4)
        for i in 0..<(width * height) { bytes[4 * i] = b; bytes[4 * i + 1] = g; bytes[4 * i + 2] = r; bytes[4 * i + 3] = a }
        bytes.withUnsafeBytes { raw in
            let view = SpriteView(owner: owner, width: width, height: height, stride: width * 4,
                                  pixels: raw.baseAddress!, originX: x, originY: y, opacity: opacity)
            blender.beginFrame()
            blender.blend(view, into: frame)
        }
        return frame
    }

    @Test func anOpaqueSpriteAtAnOddOriginCoversExactlyItsPixels() {
        let f = blendSolid(b: 255, g: 255, r: 255, a: 255, width: 5, height: 3, x: 3, y: 5, opacity: 1)
        #expect(f.sample(plane: 0, x: 3, y: 5) == 235)
        #expect(f.sample(plane: 0, x: 7, y: 7) == 235)
        #expect(f.sample(plane: 0, x: 2, y: 5) == 16)
        #expect(f.sample(plane: 0, x: 8, y: 5) == 16)
        #expect(f.sample(plane: 0, x: 3, y: 8) == 16)
        // White has neutral chroma, so chroma is untouched whatever the coverage.
        #expect(f.sample(plane: 1, x: 1, y: 2) == 128)
    }

    @Test func opacityAndAlphaMultiply() {
        // Premultiplied half-transparent white at 50 % opacity: a quarter of the way from 16 to 235.
        let f = blendSolid(b: 128, g: 128, r: 128, a: 128, width: 4, height: 4, x: 0, y: 0, opacity: 0.5)
        let expected = 16.0 + (235.0 - 16.0) * (128.0 / 255.0) * 0.5
        #expect(abs(Double(f.sample(plane: 0, x: 1, y: 1)) - expected) <= 0.6)
    }

    @Test func chromaIsWeightedByCoverageOfEachCell() {
        // Opaque blue over one pixel of a 2x2 chroma cell: a quarter of blue's chroma offset.
        let f = blendSolid(b: 255, g: 0, r: 0, a: 255, width: 1, height: 1, x: 5, y: 5, opacity: 1)
        #expect(f.sample(plane: 0, x: 5, y: 5) == 32)
        #expect(f.sample(plane: 1, x: 2, y: 2) == 128 + 28)
        #expect(f.sample(plane: 1, x: 3, y: 2) == 128)
    }

    @Test func spritesPartlyOutsideTheFrameAreClipped() {
        let f = blendSolid(b: 255, g: 255, r: 255, a: 255, width: 6, height: 6, x: -3, y: 13, opacity: 1)
        #expect(f.sample(plane: 0, x: 0, y: 15) == 235)
        #expect(f.sample(plane: 0, x: 2, y: 13) == 235)
        #expect(f.sample(plane: 0, x: 3, y: 15) == 16)
    }

    @Test func newPixelsAreConvertedAgain() {
        let blender = SpriteBlender()
        let frame = solidFrame(width: 32, height: 16, YUVColor(y: 16, cb: 128, cr: 128))
        _ = blendSolid(b: 255, g: 255, r: 255, a: 255, width: 2, height: 2, x: 0, y: 0, opacity: 1, blender: blender, frame: frame)
        _ = blendSolid(b: 0, g: 0, r: 0, a: 255, width: 2, height: 2, x: 0, y: 0, opacity: 1, blender: blender, frame: frame)
        #expect(frame.sample(plane: 0, x: 0, y: 0) == 16)
    }

    /// The 32-bit blend gives exactly the value of the plain 64-bit formula (kept here as the
    /// reference) for random sprites, frames, opacities and origins, clipped ones and sprites
    /// whose colour exceeds their alpha included.
    @Test func theBlendEqualsTheReferenceFormula() {
        var rng = SplitMix64(seed: 7)
        for _ in 0..<200 {
            let width = 1 + Int(rng.next() % 40), height = 1 + Int(rng.next() % 30)
            let frame = YUVFrame(width: 33 + Int(rng.next() % 20), height: 17 + Int(rng.next() % 20))
            for p in 0..<3 {
                let (base, stride) = frame.plane(p)
                let rows = p == 0 ? frame.height : frame.chromaHeight, columns = p == 0 ? frame.width : frame.chromaWidth
                for y in 0..<rows { for x in 0..<columns { base[y * stride + x] = UInt8(truncatingIfNeeded: rng.next()) } }
            }
            var bytes = (0..<(width * height * 4)).map { _ in UInt8(truncatingIfNeeded: rng.next()) }
            for i in stride(from: 3, to: bytes.count, by: 4) where rng.next() % 4 == 0 { bytes[i] = [0, 255][Int(rng.next() % 2)] }
            let originX = Int(rng.next() % 60) - 20, originY = Int(rng.next() % 40) - 15
            let opacity = Double(rng.next() % 257) / 256
            let expected = YUVFrame(width: frame.width, height: frame.height)
            expected.copy(from: frame)
            bytes.withUnsafeBytes { raw in
                let view = SpriteView(owner: PremultipliedImage(width: 1, height: 1), width: width, height: height, stride: width * 4,
                                      pixels: raw.baseAddress!, originX: originX, originY: originY, opacity: opacity)
                let blender = SpriteBlender()
                blender.beginFrame()
                blender.blend(view, into: frame)
                let o = Int((opacity * 256).rounded())
                if o > 0 { referenceBlend(ConvertedSprite(view, matrix: .bt709), into: expected, originX: originX, originY: originY, opacity: o) }
            }
            for p in 0..<3 {
                let rows = p == 0 ? frame.height : frame.chromaHeight, columns = p == 0 ? frame.width : frame.chromaWidth
                for y in 0..<rows {
                    for x in 0..<columns where frame.sample(plane: p, x: x, y: y) != expected.sample(plane: p, x: x, y: y) {
                        Issue.record("plane \(p) (\(x), \(y)): \(frame.sample(plane: p, x: x, y: y)), expected \(expected.sample(plane: p, x: x, y: y))")
                        return
                    }
                }
            }
        }
    }

    /// out = ⌊(colour·α·o·255 + dst·(255·256 − α·o)·256 + 255·256·128) / (255·256²)⌋ per sample.
    private func referenceBlend(_ s: ConvertedSprite, into frame: YUVFrame, originX: Int, originY: Int, opacity o: Int) {
        let d = 255 * 256
        let (yp, ys) = frame.plane(0)
        let x0 = max(0, originX), x1 = min(frame.width, originX + s.width)
        let y0 = max(0, originY), y1 = min(frame.height, originY + s.height)
        guard x0 < x1, y0 < y1 else { return }
        for y in y0..<y1 {
            for x in x0..<x1 {
                let i = (y - originY) * s.width + x - originX
                let a = Int(s.lumaAlpha[i])
                guard a > 0 else { continue }
                let v = (Int(s.luma[i]) * o * 255 + Int(yp[y * ys + x]) * (d - a * o) * 256 + d * 128) / (d * 256)
                yp[y * ys + x] = UInt8(clamping: v)
            }
        }
        let firstCellX = (originX - s.cellX) / 2, firstCellY = (originY - s.cellY) / 2
        for (sums, p) in [(s.cellCb, 1), (s.cellCr, 2)] {
            let (plane, cs) = frame.plane(p)
            for cy in max(0, y0 / 2)..<min(frame.chromaHeight, (y1 + 1) / 2) {
                for cx in max(0, x0 / 2)..<min(frame.chromaWidth, (x1 + 1) / 2) {
                    let i = (cy - firstCellY) * s.cellColumns + cx - firstCellX
                    let a = Int(s.cellAlpha[i])
                    guard a > 0 else { continue }
                    let v = (Int(sums[i]) * o * 255 + Int(plane[cy * cs + cx]) * (4 * d - a * o) * 256 + 4 * d * 128) / (4 * d * 256)
                    plane[cy * cs + cx] = UInt8(clamping: v)
                }
            }
        }
    }
}
