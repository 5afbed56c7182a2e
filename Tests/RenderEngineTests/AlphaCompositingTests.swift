import CompositionGraph
import Foundation
import LookKernels
import MediaIO
@testable import RenderEngine
import Testing

/// Outputs that keep alpha: the premultiplied canvas turned into straight `yuva420p`
/// (unpremultiplied luma, alpha-weighted chroma, empty blocks given their neighbours' chroma),
/// sprites "over" the canvas with alpha, whole frames through the compositing stage, and
/// VP9's alpha side data kept by a segment's part.
@Suite struct AlphaCompositingTests {
    let render = PixelSize(width: 8, height: 4)

    /// Sets canvas pixel (x, y) to the premultiplied Y′CbCrA of straight R′G′B′ at alpha `a`.
    func put(_ canvas: PremultipliedImage, _ x: Int, _ y: Int, r: UInt8, g: UInt8, b: UInt8, a: UInt8) {
        func pre(_ v: UInt8) -> UInt8 { UInt8((Int(v) * Int(a) + 127) / 255) }
        let c = YCbCrMatrix.bt709.premultipliedYCbCrA((pre(r), pre(g), pre(b), a))
        canvas.setPixel(x: x, y: y, (UInt8(c.y), UInt8(c.cb), UInt8(c.cr), UInt8(c.a)))
    }

    func converted(_ canvas: PremultipliedImage) -> YUVFrame {
        let out = YUVFrame(width: canvas.width, height: canvas.height, alpha: true)
        AlphaFrameConverter().convert(canvas, into: out)
        return out
    }

    @Test func aHalfCoveredWhitePixelStaysWhiteWithHalfAlpha() {
        let canvas = PremultipliedImage(width: 8, height: 4)
        put(canvas, 0, 0, r: 255, g: 255, b: 255, a: 128)
        let out = converted(canvas)
        #expect(out.sample(plane: 0, x: 0, y: 0) == 235)
        #expect(out.sample(plane: 3, x: 0, y: 0) == 128)
        #expect(out.sample(plane: 1, x: 0, y: 0) == 128 && out.sample(plane: 2, x: 0, y: 0) == 128)
        #expect(out.sample(plane: 0, x: 1, y: 0) == 16 && out.sample(plane: 3, x: 1, y: 0) == 0)
    }

    @Test func chromaIsTheAlphaWeightedMeanOfItsBlock() {
        // One opaque red pixel and one barely there blue pixel: the block is red but for 3/258 of
        // blue (2 levels), not the plain mean of the two.
        let canvas = PremultipliedImage(width: 8, height: 4)
        put(canvas, 0, 0, r: 255, g: 0, b: 0, a: 255)
        put(canvas, 1, 1, r: 0, g: 0, b: 255, a: 3)
        let out = converted(canvas)
        let red = YCbCrMatrix.bt709.yuv(r: 255, g: 0, b: 0)
        #expect(abs(Int(out.sample(plane: 1, x: 0, y: 0)) - Int(red.cb)) <= 2)
        #expect(abs(Int(out.sample(plane: 2, x: 0, y: 0)) - Int(red.cr)) <= 2)
    }

    @Test func emptyBlocksTwoRingsDeepTakeTheirNeighboursChroma() {
        let canvas = PremultipliedImage(width: 8, height: 4)
        for y in 0..<2 { for x in 0..<2 { put(canvas, x, y, r: 255, g: 0, b: 0, a: 255) } }
        let out = converted(canvas)
        let red = YCbCrMatrix.bt709.yuv(r: 255, g: 0, b: 0)
        #expect(out.sample(plane: 1, x: 1, y: 0) == red.cb && out.sample(plane: 2, x: 1, y: 1) == red.cr)
        #expect(out.sample(plane: 1, x: 2, y: 1) == red.cb && out.sample(plane: 2, x: 2, y: 0) == red.cr)
        // Three blocks away from anything: neutral.
        #expect(out.sample(plane: 1, x: 3, y: 1) == 128 && out.sample(plane: 2, x: 3, y: 1) == 128)
    }

    @Test func spritesBlendOverTheCanvasWithTheirAlpha() throws {
        let canvas = PremultipliedImage(width: 8, height: 4)
        let owner = PremultipliedImage(width: 1, height: 1)
        var bytes = [UInt8](repeating: 128, count: 2 * 2 * 4) // premultiplied half-transparent white (BGRA)
        try bytes.withUnsafeMutableBytes { raw in
            let base = try #require(raw.baseAddress)
            SpriteBlender().blend(SpriteView(owner: owner, width: 2, height: 2, stride: 8, pixels: base, originX: 3, originY: 1, opacity: 0.5),
                                  onto: canvas)
        }
        #expect(canvas.pixel(x: 3, y: 1).a == 64)
        #expect(canvas.pixel(x: 2, y: 1).a == 0 && canvas.pixel(x: 5, y: 1).a == 0)
        let out = converted(canvas)
        #expect(out.sample(plane: 0, x: 4, y: 2) == 235 && out.sample(plane: 3, x: 4, y: 2) == 64)
    }

    /// A transparent background, and a red layer covering the left half at 50 % opacity: the
    /// right half is transparent, the left red at half alpha; the frame has an alpha plane.
    @Test func theCompositingStageKeepsAlpha() throws {
        var half = LayerTransform.identity(for: render)
        half.positionX = .constant(2)
        let red = Color(red: 1, green: 0, blue: 0)
        let layer = planned(.color(red), layer(1, size: render, fit: .none, transform: half), source: PixelSize(width: 4, height: 4),
                            render: render, alpha: 128)
        var p = plan([layer], background: .transparent)
        p.keepsAlpha = true
        #expect(!p.isRectangular)
        let stage = CompositeStage(renderSize: render, overlays: nil) { YUVFrame(width: 8, height: 4, alpha: true) }
        let frame = try stage.render(p, pictures: [.color(red)])
        let expected = YCbCrMatrix.bt709.yuv(r: 255, g: 0, b: 0)
        #expect(frame.sample(plane: 3, x: 1, y: 1) == 128 && frame.sample(plane: 3, x: 5, y: 1) == 0)
        #expect(abs(Int(frame.sample(plane: 0, x: 1, y: 1)) - Int(expected.y)) <= 1)
        #expect(abs(Int(frame.sample(plane: 2, x: 0, y: 0)) - Int(expected.cr)) <= 1)
    }

    @Test func aPartKeepsVP9AlphaSideData() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("alpha-\(UUID().uuidString).reelpart").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let packets = [EncodedPacket(pts: 0, dts: 0, isKeyframe: true, data: [1, 2, 3], blockAdditional: [0, 0, 0, 0, 0, 0, 0, 1, 9, 8]),
                       EncodedPacket(pts: 1, dts: 1, isKeyframe: false, data: [4])]
        let writer = try PartFile.Writer(path: path, header: PartFile.Header(key: "k", firstFrame: 0, frameCount: 2, extradata: []))
        for packet in packets { try writer.append(packet) }
        try writer.finish()
        #expect(try PartFile.read(path, key: "k").1 == packets)
    }
}
