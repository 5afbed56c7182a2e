import CompositionGraph
import Foundation
import LookKernels
import MediaTime
@testable import RenderEngine
import Testing

/// Compositor cost per 1080p frame on each path. Prints figures when `REEL_MEASURE=1`
/// (run with `swift test -c release --filter CompositorThroughput`); always checks the result.
@Suite struct CompositorThroughputTests {
    let size = PixelSize(width: 1920, height: 1080)
    let iterations = ProcessInfo.processInfo.environment["REEL_MEASURE"] == "1" ? 200 : 2

    func measure(_ name: String, _ body: () -> Void) {
        let start = ProcessInfo.processInfo.systemUptime
        for _ in 0..<iterations { body() }
        let perFrame = (ProcessInfo.processInfo.systemUptime - start) / Double(iterations)
        if iterations > 2 { print("compositor 1080p \(name): \(String(format: "%.2f", perFrame * 1000)) ms/frame, \(Int(1 / perFrame)) fps") }
    }

    func fullFrameLayer(_ track: Int, alpha: Int = 256, transform: LayerTransform? = nil, crop: CropAnimation = .none) -> PlannedLayer {
        planned(.media(testRef, sourceTime: .zero), layer(track, size: size, crop: crop, transform: transform), source: size, render: size, alpha: alpha)
    }

    @Test func pathsAt1080p() {
        let compositor = FrameCompositor(renderSize: size)
        let out = YUVFrame(width: 1920, height: 1080)
        let a = solidFrame(width: 1920, height: 1080, YUVColor(y: 100, cb: 100, cr: 100))
        let b = solidFrame(width: 1920, height: 1080, YUVColor(y: 200, cb: 150, cr: 150))

        var result: YUVFrame = out
        measure("pass-through") { result = compositor.composite(plan([fullFrameLayer(1)]), pictures: [.yuv(a)], into: out) }
        #expect(result === a)

        measure("crossfade") {
            result = compositor.composite(plan([fullFrameLayer(1), fullFrameLayer(2, alpha: 128)]), pictures: [.yuv(a), .yuv(b)], into: out)
        }
        #expect(out.sample(plane: 0, x: 960, y: 540) == 150)

        let wipe = CropAnimation(right: .constant(0.5))
        measure("wipe") {
            _ = compositor.composite(plan([fullFrameLayer(1), fullFrameLayer(2, crop: wipe)]), pictures: [.yuv(a), .yuv(b)], into: out)
        }
        #expect(out.sample(plane: 0, x: 100, y: 540) == 200 && out.sample(plane: 0, x: 1800, y: 540) == 100)

        var turned = LayerTransform.identity(for: size)
        turned.rotation = .constant(10)
        let image = PremultipliedImage(width: 1920, height: 1080)
        image.fill((255, 255, 255, 255))
        measure("rotated (general path)") {
            _ = compositor.composite(plan([fullFrameLayer(1, transform: turned)]), pictures: [.rgba(image)], into: out)
        }
        #expect(out.sample(plane: 0, x: 960, y: 540) == 235)

        let blender = SpriteBlender()
        let owner = PremultipliedImage(width: 1, height: 1)
        var watermark = [UInt8](repeating: 0, count: 480 * 160 * 4)
        for i in stride(from: 0, to: watermark.count, by: 4) { watermark[i] = 200; watermark[i + 3] = 200 }
        measure("watermark sprite 480x160") {
            watermark.withUnsafeBytes { raw in
                blender.beginFrame()
                blender.blend(SpriteView(owner: owner, width: 480, height: 160, stride: 480 * 4, pixels: raw.baseAddress!,
                                         originX: 1408, originY: 888, opacity: 0.7), into: out)
            }
        }
        #expect(out.sample(plane: 0, x: 1500, y: 950) != 235)
    }
}
