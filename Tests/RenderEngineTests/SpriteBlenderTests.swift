import Testing
@testable import RenderEngine

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
}
