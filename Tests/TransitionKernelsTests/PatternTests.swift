import Foundation
import Testing
@testable import TransitionKernels

/// The kernels that uncover the incoming picture in a shape: crosshatch, luminance-melt,
/// perlin, polar-function, undulating-burn-out, stereo-viewer.
@Suite struct PatternTests {
    typealias C = PixelCheck
    let red = PixelCheck.red, blue = PixelCheck.blue

    @Test func crosshatchSwitchesStreaksByTheirRandomStart() throws {
        try C.frames("crosshatch", from: KernelFixture.solid(red), to: KernelFixture.solid(blue), at: [0, 0.25, 0.5, 0.75, 1]) { uv, p in
            if p == 0 { return red }
            if p == 1 { return blue }
            // Between 0.1 and 0.9 a point is either picture: it has switched once p less the
            // earlier of its row's and its column's random start reaches a third of its distance
            // from the centre.
            // (The random numbers take the point's last bits: as the renderer computes it.)
            let reach = p - min(random(SIMD2(PixelCheck.rendererV(uv), 0)), random(SIMD2(0, PixelCheck.rendererU(uv))))
            let dist = distance(uv, SIMD2(0.5, 0.5)) / 3
            guard abs(reach - dist) > 1e-5 else { return nil }
            return reach >= dist ? blue : red
        }
    }

    @Test func theSimplexNoiseIsAshimasAsAGPUComputesIt() {
        // snoise values rendered by Mesa (llvmpipe) from luminance_melt.glsl's own code.
        let reference: [(SIMD2<Float>, Float)] = [(SIMD2(0.3, 0), 0.08748329430818558), (SIMD2(0.5, 0), 0.5242209434509277),
                                                  (SIMD2(0.7, 0), 0.6102480888366699), (SIMD2(0.9, 0), 0.11808320134878159),
                                                  (SIMD2(3.7, -2.2), 0.08254550397396088), (SIMD2(-5.3, 11.9), -0.4307120442390442)]
        for (point, value) in reference { #expect(abs(LuminanceMelt.simplexNoise(point) - value) < 1e-5, "at \(point)") }
    }

    @Test func luminanceMeltMeltsTheDarkPartsFromTheTopRight() throws {
        // Red's luma 0.299 is below 0.8: it melts. The noise is the one checked against Mesa above.
        func expectation(corner: SIMD2<Float>, melts: Bool, _ from: SIMD4<Float>) -> (SIMD2<Float>, Float) -> SIMD4<Float>? {
            { uv, p in
                if p == 0 { return from }
                if p == 1 { return blue }
                let fade = from * (1 - p * p * p) + blue * (p * p * p)
                guard melts else { return fade }
                let x = PixelCheck.rendererU(uv)
                let reach = p - random(SIMD2(x, 0.1))
                let front = distance(corner, uv) - p * Float(Foundation.exp(Double(LuminanceMelt.simplexNoise(SIMD2(x, 0)))))
                guard abs(front - reach) > 1e-4 else { return nil }
                return front <= reach ? blue : fade
            }
        }
        let n1 = try C.frames("luminance-melt", from: KernelFixture.solid(red), to: KernelFixture.solid(blue), at: [0, 0.25, 0.5, 0.75, 1],
                              tolerance: 1e-6, expectation(corner: SIMD2(1, 1), melts: true, red))
        #expect(n1 > 0)
        // Bottom-right, and the bright parts: white melts, red only fades.
        let white = SIMD4<Float>(1, 1, 1, 1)
        try C.frames("luminance-melt", ["direction": .boolean(false), "above": .boolean(true)], from: KernelFixture.solid(white),
                     to: KernelFixture.solid(blue), tolerance: 1e-6, expectation(corner: SIMD2(1, 0), melts: true, white))
        try C.frames("luminance-melt", ["above": .boolean(true)], from: KernelFixture.solid(red), to: KernelFixture.solid(blue),
                     tolerance: 1e-6, expectation(corner: SIMD2(1, 1), melts: false, red))
    }

    @Test func perlinSwitchesWhereTheNoiseIsBelowTheProgress() throws {
        func value(_ i: SIMD2<Float>) -> Float { reducedRandom(i, a: 12.9898) }
        try C.frames("perlin", from: KernelFixture.solid(red), to: KernelFixture.solid(blue), at: [0, 0.25, 0.5, 0.75, 1]) { uv, p in
            let q = uv * 4, i = q.rounded(.down), f = q - i, u = f * f * (3 - 2 * f)
            // Bilinear between the four corners' random values, with the cubic fade.
            let bottom = value(i) * (1 - u.x) + value(i + SIMD2(1, 0)) * u.x
            let top = value(i + SIMD2(0, 1)) * (1 - u.x) + value(i + SIMD2(1, 1)) * u.x
            let n = bottom * (1 - u.y) + top * u.y
            let edge = -0.01 + p * 1.02
            if n > edge + 0.01 + 1e-5 { return red }
            if n < edge - 0.01 - 1e-5 { return blue }
            return nil
        }
    }

    @Test func polarFunctionGrowsAFivePetalledFlower() throws {
        try C.frames("polar-function", from: KernelFixture.solid(red), to: KernelFixture.solid(blue), at: [0, 0.25, 0.5, 0.75, 1]) { uv, p in
            let d = SIMD2<Double>(Double(uv.x) - 0.5, Double(uv.y) - 0.5)
            let radius = (Foundation.cos(5 * (Foundation.atan2(d.y, d.x) - Double.pi / 2)) + 4) / 4 * Double(p)
            let r = (d * d).sum().squareRoot()
            guard abs(r - radius) > 1e-5 else { return nil }
            return r > radius ? red : blue
        }
    }

    @Test func undulatingBurnOutGrowsAWavyBurningDisc() throws {
        let a = SIMD4<Float>(0.5, 0.5, 0.5, 1), b = SIMD4<Float>(0.2, 0.6, 0.9, 1)
        try C.frames("undulating-burn-out", from: KernelFixture.solid(a), to: KernelFixture.solid(b), at: [0, 0.25, 0.5, 0.75, 1], tolerance: 1e-3) { uv, p in
            let d = SIMD2<Double>(Double(uv.x) - 0.5, Double(uv.y) - 0.5), dist = (d * d).sum().squareRoot()
            let e = Double(C.smooth(0, 1, p)), t = Double(p)
            let s = Foundation.sin(15 * (Foundation.atan2(d.y, d.x) + Double.pi))
            let eased = s < 0.5 ? 2 * s * s : -2 * s * s + 4 * s - 1
            let radius = t + eased * (0.02 + 0.07 * e) * Foundation.sin(t * (40 - 10 * e))
            let gap = radius - dist
            guard abs(gap + 0.005) > 1e-4, abs(gap - 0.005) > 1e-4, abs(gap - 0.01) > 1e-4 else { return nil }
            if gap >= -0.005 && gap < 0.005 { return a * 2 - b }       // the glow
            if gap >= 0.005 && gap <= 0.01 { return SIMD4(0.125, 0.125, 0.125, 1) } // 75 % black
            let m = C.smooth(-0.03, 0, Float(radius - dist * 1.03))
            return a * (1 - m) + b * m
        }
    }

    @Test func stereoViewerSwingsCardsApartAndTogether() throws {
        let ratio = Float(KernelFixture.width) / Float(KernelFixture.height)
        let a = SIMD4<Float>(0.64, 0.36, 0, 1), b = SIMD4<Float>(0.19, 0.51, 0.75, 1)
        // Unscreened (1 − √(1 − c)): screened with itself it is the colour again.
        let ua = SIMD4<Float>(0.4, 0.2, 0, 1), ub = SIMD4<Float>(0.1, 0.3, 0.5, 1)
        let radii = SIMD2(0.22 / ratio, Float(0.22))
        /// Whether the point is on the unit card with elliptic corners; nil near its outline.
        func onCard(_ q: SIMD2<Float>, _ r: SIMD2<Float>) -> Bool? {
            let edges = min(abs(q.x), abs(q.y), abs(1 - q.x), abs(1 - q.y))
            guard edges > 1e-4 else { return nil }
            guard q.x > 0, q.x < 1, q.y > 0, q.y < 1 else { return false }
            let cx = q.x < r.x ? r.x : q.x > 1 - r.x ? 1 - r.x : q.x, cy = q.y < r.y ? r.y : q.y > 1 - r.y ? 1 - r.y : q.y
            guard cx != q.x && cy != q.y else { return true }
            let e = ((q.x - cx) / r.x) * ((q.x - cx) / r.x) + ((q.y - cy) / r.y) * ((q.y - cy) / r.y)
            guard abs(e - 1) > 1e-3 else { return nil }
            return e < 1
        }
        /// The frame point `uv` turned by `angle` about (±2, 0) in centred coordinates 1 wide, 1/ratio high.
        func swung(_ c: SIMD2<Float>, _ pivot: Float, _ angle: Float) -> SIMD2<Float> {
            let cs = Float(Foundation.cos(Double(angle))), sn = Float(Foundation.sin(Double(angle)))
            let x = c.x - pivot
            return SIMD2(cs * x - sn * c.y + pivot + 0.5, (sn * x + cs * c.y) * ratio + 0.5)
        }
        try C.frames("stereo-viewer", from: KernelFixture.solid(a), to: KernelFixture.solid(b), at: [0, 0.05, 0.25, 0.5, 0.75, 0.95, 1], tolerance: 1e-5) { uv, p in
            if p == 0 { return a }
            if p == 1 { return b }
            if p < 0.1 || p >= 0.9 {
                let k = p < 0.1 ? p / 0.1 : (1 - p) / 0.1
                guard let on = onCard((uv - 0.5) / (1 - k + 0.88 * k) + 0.5, radii * k) else { return nil }
                return on ? (p < 0.1 ? a : b) : C.black
            }
            if p < 0.48 {
                let k = (p - 0.1) / 0.38, c = SIMD2(uv.x - 0.5, (uv.y - 0.5) / ratio)
                guard let one = onCard((swung(c, -2, k * k / 2.4) - 0.5) / 0.88 + 0.5, radii),
                      let two = onCard((swung(c, 2, k * k / 2.4) - 0.5) / 0.88 + 0.5, radii) else { return nil }
                return one && two ? a : one || two ? ua : C.black
            }
            let k = 1 - (p - 0.52) / 0.38, c = SIMD2((uv.x - 0.5) / 0.88, (uv.y - 0.5) / (0.88 * ratio))
            guard let one = onCard(swung(c, -2, k * k / 2.4), radii), let two = onCard(swung(c, 2, k * k / 2.4), radii),
                  let card = onCard((uv - 0.5) / 0.88 + 0.5, radii) else { return nil }
            guard card else { return C.black }
            return one && two ? b : one || two ? ub : C.black
        }
    }
}
