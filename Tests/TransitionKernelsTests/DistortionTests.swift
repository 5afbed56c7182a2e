import Foundation
import Testing
@testable import TransitionKernels

/// The kernels that read the pictures elsewhere: morph, kaleidoscope, cross-warp,
/// rotate-scale-fade, squeeze, crazy-parametric-fun, butterfly-wave-scrawler, glitch-displace,
/// bounce, doom-screen-transition. The ramp's colour shows where they read.
@Suite struct DistortionTests {
    typealias C = PixelCheck
    let red = PixelCheck.red, blue = PixelCheck.blue

    @Test func morphPushesAlongTheColoursOffset() throws {
        try C.frames("morph", from: KernelFixture.ramp(), to: KernelFixture.solid(blue), at: [0, 0.25, 0.5, 0.75, 1], tolerance: 1e-5) { uv, p in
            let a = C.rampValue(uv)
            // Offsets: (r + b, g + b) − 1 of each picture, averaged, times 0.1.
            let shift = (SIMD2(a.x + a.z - 1, a.y + a.z - 1) + SIMD2<Float>(0, 0)) / 2 * 0.1
            return C.rampValue(uv + shift * p) * (1 - p) + blue * p
        }
    }

    @Test func kaleidoscopeFoldsTheMiddleFrames() throws {
        try C.frames("kaleidoscope", from: KernelFixture.ramp(), to: KernelFixture.solid(blue), at: [0, 0.25, 0.5, 0.75, 1], tolerance: 2e-4) { uv, p in
            var t = Foundation.pow(Double(p), 1.5)
            var q = SIMD2<Double>(Double(uv.x) - 0.5, Double(uv.y) - 0.5)
            for _ in 0..<7 {
                q = SIMD2(Foundation.sin(t) * q.x + Foundation.cos(t) * q.y, Foundation.sin(t) * q.y - Foundation.cos(t) * q.x)
                t += 1
                q = SIMD2(abs(q.x - 2 * (q.x / 2).rounded(.down) - 1), abs(q.y - 2 * (q.y / 2).rounded(.down) - 1))
            }
            let plain = C.rampValue(uv) * (1 - p) + blue * p
            let folded = C.rampValue(SIMD2(Float(q.x), Float(q.y))) * (1 - p) + blue * p
            let w = 1 - 2 * abs(p - 0.5)
            return plain * (1 - w) + folded * w
        }
    }

    @Test func crossWarpShrinksTheOutgoingAndGrowsTheIncoming() throws {
        try C.frames("cross-warp", from: KernelFixture.ramp(), to: KernelFixture.solid(blue), at: [0, 0.25, 0.5, 0.75, 1], tolerance: 1e-5) { uv, p in
            let x = C.smooth(0, 1, 2 * p + uv.x - 1)
            return C.rampValue((uv - 0.5) * (1 - x) + 0.5) * (1 - x) + blue * x
        }
        try C.frames("cross-warp", from: KernelFixture.solid(red), to: KernelFixture.ramp(), tolerance: 1e-5) { uv, p in
            let x = C.smooth(0, 1, 2 * p + uv.x - 1)
            return red * (1 - x) + C.rampValue((uv - 0.5) * x + 0.5) * x
        }
    }

    @Test func rotateScaleFadeTurnsAndShrinksAboutTheCentre() throws {
        let back = SIMD4<Float>(0.15, 0.15, 0.15, 1)
        try C.frames("rotate-scale-fade", from: KernelFixture.ramp(), to: KernelFixture.solid(blue), at: [0, 0.25, 0.5, 0.75, 1], tolerance: 1e-4) { uv, p in
            let angle = 2 * Double.pi * Double(p), zoom = 8 + (1 - 8) * 2 * abs(p - 0.5)
            let d = uv - 0.5, c = Float(Foundation.cos(angle)), s = Float(Foundation.sin(angle))
            let point = SIMD2(c * d.x - s * d.y, s * d.x + c * d.y) / zoom + 0.5
            let edge = min(abs(point.x), abs(point.y), abs(1 - point.x), abs(1 - point.y))
            guard edge > 1e-4 else { return nil }
            if point.x < 0 || point.x > 1 || point.y < 0 || point.y > 1 { return back }
            return C.rampValue(point) * (1 - p) + blue * p
        }
    }

    @Test func squeezeFlattensTheOutgoingToTheMiddleLine() throws {
        try C.frames("squeeze", from: C.verticalRamp(), to: KernelFixture.solid(blue), at: [0, 0.25, 0.5, 0.75, 1], tolerance: 1e-5) { uv, p in
            guard p < 1 else { return blue }
            let y = 0.5 + (uv.y - 0.5) / (1 - p)
            if y < 0 || y > 1 { return blue }
            let off = p * 0.04
            return SIMD4(C.verticalRampValue(y - off), C.verticalRampValue(y), C.verticalRampValue(y + off), 1)
        }
    }

    @Test func crazyParametricFunOffsetsAlongTheHypotrochoid() throws {
        try C.frames("crazy-parametric-fun", from: KernelFixture.ramp(), to: KernelFixture.solid(blue), at: [0, 0.25, 0.5, 0.75, 1], tolerance: 2e-3) { uv, p in
            let t = Double(p), d = SIMD2<Double>(Double(uv.x) - 0.5, Double(uv.y) - 0.5), dist = (d * d).sum().squareRoot()
            let x = 3 * Foundation.cos(t) + Foundation.cos(3 * t), y = 3 * Foundation.sin(t) - Foundation.sin(3 * t)
            let offset = d * SIMD2(Foundation.sin(t * dist * 120 * x), Foundation.sin(t * dist * 120 * y)) / 0.1
            let w = C.smooth(0.2, 1, p)
            return C.rampValue(uv + SIMD2(Float(offset.x), Float(offset.y))) * (1 - w) + blue * w
        }
    }

    @Test func butterflyWaveScrawlerRipplesByTheButterflyCurve() throws {
        try C.frames("butterfly-wave-scrawler", from: KernelFixture.ramp(), to: KernelFixture.solid(blue), at: [0, 0.25, 0.5, 0.75, 1], tolerance: 2e-3) { uv, p in
            if p == 0 { return C.rampValue(uv) }
            if p == 1 { return blue }
            let theta = Foundation.acos(Double(uv.x) * Foundation.sin(Double(p)) - 0.5) * 30
            let s = Foundation.sin((2 * theta - Double.pi) / 24)
            let ripple = Float((Foundation.exp(Foundation.cos(theta)) - 2 * Foundation.cos(4 * theta) + s * s * s * s * s) / 10)
            let shift = p * ripple
            let outgoing = SIMD4(C.rampValue(uv + shift * 0.7).x, C.rampValue(uv + shift).y, 0.5, 1)
            return blue * p + outgoing * (1 - p)
        }
    }

    @Test func glitchDisplaceReadsTheOtherPictureDisplaced() throws {
        let b = SIMD4<Float>(0.1, 0.3, 0.7, 1)
        func easeInOut(_ t: Float) -> Float {
            t == 0 || t == 1 ? t : t < 0.5 ? Float(0.5 * Foundation.pow(2, Double(20 * t - 10))) : Float(1 - 0.5 * Foundation.pow(2, Double(10 - 20 * t)))
        }
        try C.frames("glitch-displace", from: KernelFixture.ramp(), to: KernelFixture.solid(b), at: [0, 0.25, 0.5, 0.75, 1], tolerance: 1e-4) { uv, p in
            let a = C.rampValue(uv), snap = easeInOut(p)
            let out2 = p == 1 ? 1 : Float(1 - Foundation.pow(2, Double(-10 * p)))
            // The outgoing picture read where the incoming one's red and green send it.
            let read = uv + (SIMD2(b.x, b.y) * (0.33 - 0.5) + 0.33 * 0.5) * out2
            let m = pointwiseMin(C.rampValue(read), b)
            let grey = 2 * (0.299 * m.x + 0.587 * m.y + 0.114 * m.z)
            let s1 = C.smooth(0, 0.5, p)
            let outgoing = a * (1 - s1) + SIMD4(grey, grey, grey, 2) * s1
            return pointwiseMin(outgoing * (1 - snap) + b * snap, SIMD4(repeating: 1))
        }
    }

    @Test func bounceDropsTheOutgoingPictureWithAShadow() throws {
        try C.frames("bounce", from: KernelFixture.ramp(), to: KernelFixture.solid(blue), at: [0, 0.25, 0.5, 0.75, 1], tolerance: 1e-5) { uv, p in
            let top = Float(abs(Foundation.cos(3 * Double.pi * Double(p))) * (1 - Foundation.sin(Double.pi * Double(p) / 2)))
            let d = uv.y - top
            guard abs(d) > 1e-4, abs(d - 0.075) > 1e-4 else { return nil }
            if d < 0 { return C.rampValue(SIMD2(uv.x, uv.y + 1 - top)) }
            if d > 0.075 { return blue }
            // The shadow: black at 60 % opacity, weighed 0.6·(1 − d/0.075), fading out after 0.95.
            let w = 0.6 * (1 - d / 0.075) * (1 - C.smooth(0.95, 1, p))
            return blue * (1 - w) + SIMD4(0, 0, 0, 0.6) * w
        }
    }

    @Test func doomBarsSlideDownAtTheirSpeeds() throws {
        try C.frames("doom-screen-transition", from: KernelFixture.ramp(), to: KernelFixture.solid(blue), at: [0, 0.25, 0.5, 0.75, 1], tolerance: 1e-5) { uv, p in
            let n = min(Int(uv.x * 30), 29), fn = Double(n) * 0.5 * 0.1 * 30
            let wave = Foundation.cos(fn * 0.5) * Foundation.cos(fn * 0.13) * Foundation.sin((fn + 10) * 0.3) / 2 + 0.5
            // The original's pseudo-random number, in Float as a GPU computes its first products.
            let m = Float(n) * Float(67123.313), m12 = Double(m - 12 * (m / 12).rounded(.down))
            let r0 = m12 * Foundation.sin(Double(Float(n) * 10.3)) * Foundation.cos(Double(n))
            let r = r0 - r0.rounded(.down)
            let pos = wave * 0.9 + r * 0.1 + Foundation.sin(Double(n) / 29 * 3.141592) * 0.5
            let phase = p * Float(1 + pos * 2)
            guard abs(phase + uv.y - 1) > 1e-4 else { return nil }
            return phase + uv.y < 1 ? C.rampValue(SIMD2(uv.x, uv.y + phase)) : blue
        }
    }
}
