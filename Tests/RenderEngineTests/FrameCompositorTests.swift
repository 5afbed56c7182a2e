import CompositionGraph
import LookKernels
import MediaTime
@testable import RenderEngine
import Testing
import TestSupport

@Suite struct FrameCompositorTests {
    let render = PixelSize(width: 64, height: 36)
    let red = YUVColor(y: 63, cb: 102, cr: 240)
    let blue = YUVColor(y: 32, cb: 240, cr: 118)

    @Test func bt709ConvertsPrimariesToTheirStudioRangeCodes() {
        let m = YCbCrMatrix.bt709
        #expect(m.yuv(of: .white) == YUVColor(y: 235, cb: 128, cr: 128))
        #expect(m.yuv(of: .black) == YUVColor(y: 16, cb: 128, cr: 128))
        #expect(m.yuv(of: Color(red: 1, green: 0, blue: 0)) == red)
        #expect(m.yuv(of: Color(red: 0, green: 0, blue: 1)) == blue)
    }

    @Test func anOpaqueFullFrameSourceIsPassedThroughWithoutACopy() {
        let source = solidFrame(width: 64, height: 36, red)
        let p = plan([planned(.media(testRef, sourceTime: .zero), layer(1, size: render), source: render, render: render)])
        let out = YUVFrame(width: 64, height: 36)
        let result = FrameCompositor(renderSize: render).composite(p, pictures: [.yuv(source)], into: out)
        #expect(result === source)
    }

    @Test func containLetterboxesOverTheBackground() {
        // A 32x36 source contained in 64x36: centred, 16 px of background each side.
        let source = PixelSize(width: 32, height: 36)
        let p = plan([planned(.media(testRef, sourceTime: .zero), layer(1, size: render), source: source, render: render)],
                     background: .white)
        let rect = p.layers[0].placement.rectangle(in: render)!
        #expect(rect == PlacedRectangle(sourceWidth: 32, sourceHeight: 36, originX: 16, originY: 0,
                                        visibleX0: 16, visibleY0: 0, visibleX1: 48, visibleY1: 36))
        let out = YUVFrame(width: 64, height: 36)
        let result = FrameCompositor(renderSize: render).composite(p, pictures: [.yuv(solidFrame(width: 32, height: 36, red))], into: out)
        #expect(result === out)
        #expect(out.sample(plane: 0, x: 15, y: 10) == 235)
        #expect(out.sample(plane: 0, x: 16, y: 10) == red.y)
        #expect(out.sample(plane: 0, x: 47, y: 10) == red.y)
        #expect(out.sample(plane: 0, x: 48, y: 10) == 235)
        #expect(out.sample(plane: 2, x: 8, y: 5) == red.cr)
        #expect(out.sample(plane: 2, x: 7, y: 5) == 128)
    }

    @Test func crossfadeBlendsByOpacityInIntegers() {
        let a = planned(.media(testRef, sourceTime: .zero), layer(1, size: render), source: render, render: render)
        let b = planned(.media(testRef, sourceTime: .zero), layer(2, size: render), source: render, render: render, alpha: 64)
        let out = YUVFrame(width: 64, height: 36)
        _ = FrameCompositor(renderSize: render).composite(plan([a, b]), pictures: [.yuv(solidFrame(width: 64, height: 36, red)),
                                                                                  .yuv(solidFrame(width: 64, height: 36, blue))], into: out)
        // 63 + (32 − 63)·64/256 = 55.25 → 55; Cb 102 + 138/4 = 136.5 → 136 (floor of +128 bias).
        #expect(out.sample(plane: 0, x: 30, y: 20) == 55)
        #expect(out.sample(plane: 1, x: 3, y: 3) == UInt8(102 + ((138 * 64 + 128) >> 8)))
    }

    @Test func wipeCropCutsTheTopLayerInPlace() {
        let bottom = planned(.color(Color(red: 1, green: 0, blue: 0)), layer(1, size: render), source: render, render: render)
        let wipe = layer(2, size: render, crop: CropAnimation(left: .ramp(from: 0, to: 1, over: TimeRange(start: .zero, duration: seconds(1)))))
        let top = planned(.color(Color(red: 0, green: 0, blue: 1)), wipe, source: render, render: render, at: seconds(1, 2))
        let out = YUVFrame(width: 64, height: 36)
        _ = FrameCompositor(renderSize: render).composite(plan([bottom, top]), pictures: [.color(Color(red: 1, green: 0, blue: 0)),
                                                                                        .color(Color(red: 0, green: 0, blue: 1))], into: out)
        #expect(out.sample(plane: 0, x: 31, y: 18) == red.y)
        #expect(out.sample(plane: 0, x: 32, y: 18) == blue.y)
    }

    @Test func slideMovesTheLayerByItsPositionRamp() {
        // Position x ramps from the centre (32) to 32 + 64 over 1 s: at 0.25 s the layer starts at x = 16.
        var tr = LayerTransform.identity(for: render)
        tr.positionX = .ramp(from: 32, to: 96, over: TimeRange(start: .zero, duration: seconds(1)))
        let moving = planned(.media(testRef, sourceTime: .zero), layer(1, size: render, transform: tr),
                             source: render, render: render, at: seconds(1, 4))
        let rect = moving.placement.rectangle(in: render)!
        #expect(rect.originX == 16 && rect.visibleX0 == 16 && rect.visibleX1 == 64)
        let out = YUVFrame(width: 64, height: 36)
        _ = FrameCompositor(renderSize: render).composite(plan([moving]), pictures: [.yuv(solidFrame(width: 64, height: 36, red))], into: out)
        #expect(out.sample(plane: 0, x: 15, y: 0) == 16)
        #expect(out.sample(plane: 0, x: 16, y: 0) == red.y)
    }

    @Test func rotationTakesTheGeneralPathAndTurnsAboutTheAnchor() {
        // A 32x8 red bar (fit none) rotated 90° about its centre becomes an 8x32 bar centred in the frame.
        var tr = LayerTransform.identity(for: render)
        tr.rotation = .constant(90)
        let bar = PixelSize(width: 32, height: 8)
        let l = planned(.color(Color(red: 1, green: 0, blue: 0)), layer(1, size: render, fit: .none, transform: tr), source: bar, render: render)
        let p = plan([l])
        #expect(!p.isRectangular)
        let out = YUVFrame(width: 64, height: 36)
        _ = FrameCompositor(renderSize: render).composite(p, pictures: [.color(Color(red: 1, green: 0, blue: 0))], into: out)
        // Bar box after rotation: x in [28, 36), y in [2, 34).
        #expect(out.sample(plane: 0, x: 30, y: 4) == red.y)
        #expect(out.sample(plane: 0, x: 33, y: 31) == red.y)
        #expect(out.sample(plane: 0, x: 26, y: 18) == 16)
        #expect(out.sample(plane: 0, x: 40, y: 18) == 16)
        #expect(out.sample(plane: 0, x: 32, y: 0) == 16)
    }

    @Test func generalPathSamplesImagesUpsideDownAt180Degrees() {
        // Left half red, right half blue; rotated 180° the left of the output is blue.
        let image = PremultipliedImage(width: 64, height: 36)
        for y in 0..<36 { for x in 0..<64 { image.setPixel(x: x, y: y, x < 32 ? (255, 0, 0, 255) : (0, 0, 255, 255)) } }
        var tr = LayerTransform.identity(for: render)
        tr.rotation = .constant(180)
        let l = planned(.media(testRef, sourceTime: .zero), layer(1, size: render, transform: tr), source: render, render: render)
        let out = YUVFrame(width: 64, height: 36)
        _ = FrameCompositor(renderSize: render).composite(plan([l]), pictures: [.rgba(image)], into: out)
        #expect(out.sample(plane: 0, x: 4, y: 18) == blue.y)
        #expect(out.sample(plane: 0, x: 60, y: 18) == red.y)
        #expect(out.sample(plane: 2, x: 2, y: 9) == blue.cr)
    }
}
