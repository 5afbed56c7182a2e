import CompositionGraph
import LookKernels
import MediaTime
@testable import RenderEngine
import Testing
import TestSupport

/// A mixing transition through the compositor: the two layers drawn over what is beneath them,
/// read into R′G′B′A, mixed by the kernel and written back to Y′CbCr 4:2:0.
@Suite struct TransitionMixTests {
    let render = PixelSize(width: 64, height: 36)
    let red = YUVColor(y: 63, cb: 102, cr: 240)
    let blue = YUVColor(y: 32, cb: 240, cr: 118)

    func composite(_ kernel: String, progress: Double, parameters: [String: TransitionParameterValue] = [:]) throws -> YUVFrame {
        let outgoing = planned(.color(Color(red: 1, green: 0, blue: 0)), layer(1, size: render), source: render, render: render)
        var incoming = planned(.color(Color(red: 0, green: 0, blue: 1)), layer(2, size: render), source: render, render: render)
        incoming.mix = try #require(PlannedMix(TransitionMix(kernel: kernel, parameters: parameters, progress: .constant(progress)), progress: progress, size: render))
        let p = plan([outgoing, incoming])
        #expect(!p.isRectangular, "a mix is drawn on the canvas")
        let out = YUVFrame(width: 64, height: 36)
        _ = FrameCompositor(renderSize: render).composite(p, pictures: [.color(Color(red: 1, green: 0, blue: 0)), .color(Color(red: 0, green: 0, blue: 1))],
                                                          into: out)
        return out
    }

    /// circle-open (smoothness 0.3, opening): the incoming picture shows where
    /// √2·|uv − ½| < p·1.3 − 0.3, the outgoing one where √2·|uv − ½| > p·1.3.
    @Test func circleOpenShowsTheIncomingPictureInsideItsCircle() throws {
        for progress in [0.25, 0.5, 0.75] {
            let out = try composite("circle-open", progress: progress)
            for y in stride(from: 1, to: 36, by: 2) {
                for x in stride(from: 1, to: 64, by: 2) {
                    // The centre of the 2x2 block x−1…x, y−1…y (a chroma sample's), in uv.
                    let u = Double(x) / 64, v = 1 - Double(y) / 36
                    let d = 2.0.squareRoot() * ((u - 0.5) * (u - 0.5) + (v - 0.5) * (v - 0.5)).squareRoot()
                    let edge = progress * 1.3
                    if d < edge - 0.3 - 0.05 {
                        #expect(out.sample(plane: 0, x: x, y: y) == blue.y && out.sample(plane: 1, x: x / 2, y: y / 2) == blue.cb,
                                "at \(progress), (\(x), \(y)) is inside the circle")
                    } else if d > edge + 0.05 {
                        #expect(out.sample(plane: 0, x: x, y: y) == red.y && out.sample(plane: 2, x: x / 2, y: y / 2) == red.cr,
                                "at \(progress), (\(x), \(y)) is outside the circle")
                    }
                }
            }
        }
    }

    /// fade-color at ½ (black, colour_phase 0.4): each picture is s·itself over black, s =
    /// smoothstep over a sixth of its phase, the two mixed half and half: R′ = B′ = s/2.
    @Test func fadeColorIsMostlyItsColourHalfway() throws {
        let out = try composite("fade-color", progress: 0.5)
        let t = 1.0 / 6, s = t * t * (3 - 2 * t), r = s / 2, b = s / 2, luma = 0.2126 * r + 0.0722 * b
        let expected = [16 + 219 * luma, 128 + 224 * (b - luma) / (2 * (1 - 0.0722)), 128 + 224 * (r - luma) / (2 * (1 - 0.2126))]
        let written = [out.sample(plane: 0, x: 31, y: 17), out.sample(plane: 1, x: 15, y: 8), out.sample(plane: 2, x: 15, y: 8)]
        for (value, exact) in zip(written, expected) {
            // Float in the kernel, Double here: the byte may round the other way by one.
            #expect(abs(Double(value) - exact) < 1, "\(written) against \(expected)")
        }
        #expect(written[0] > 16 && written[0] < 24, "nearly black: \(written)")
    }

    @Test func anUnknownKernelIsNoMix() {
        #expect(PlannedMix(TransitionMix(kernel: "no-such-kind", parameters: [:], progress: .constant(0)), progress: 0, size: render) == nil)
    }
}
