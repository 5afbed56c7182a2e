import Testing
@testable import TransitionKernels

/// The cross-fade family: burn, color-phase, fade-color, fade-grayscale, multiply-blend,
/// colour-distance, glitch-memories, linear-blur.
@Suite struct FadeTests {
    typealias C = PixelCheck
    let red = PixelCheck.red, blue = PixelCheck.blue

    @Test func burnAddsItsColourMostInTheMiddle() throws {
        let flare = SIMD3<Float>(0.9, 0.4, 0.2)
        try C.frames("burn", from: KernelFixture.solid(red), to: KernelFixture.solid(blue), at: [0, 0.25, 0.5, 0.75, 1], tolerance: 1e-6) { _, p in
            // (1 − p)·from + p·to + 2p(1 − p)·color, saturated, opaque.
            let c = (1 - p) * rgb(red) + p * rgb(blue) + 2 * p * (1 - p) * flare
            return SIMD4(pointwiseMin(c, SIMD3(repeating: 1)), 1)
        }
    }

    @Test func colorPhaseChangesEachChannelOverItsOwnSpan() throws {
        let a = SIMD4<Float>(1, 0.2, 0, 1), b = SIMD4<Float>(0, 0.8, 1, 1)
        try C.frames("color-phase", from: KernelFixture.solid(a), to: KernelFixture.solid(b), at: [0, 0.25, 0.5, 0.75, 1], tolerance: 1e-6) { _, p in
            let w = SIMD4(C.smooth(0, 0.6, p), C.smooth(0.2, 0.8, p), C.smooth(0.4, 1, p), C.smooth(0, 1, p))
            return a + (b - a) * w
        }
    }

    @Test func fadeColorPassesThroughBlack() throws {
        try C.frames("fade-color", from: KernelFixture.solid(red), to: KernelFixture.solid(blue), at: [0, 0.25, 0.5, 0.75, 1], tolerance: 1e-6) { _, p in
            // Black is 0: each picture is only scaled by its weight.
            let outgoing = C.smooth(0.6, 0, p), incoming = C.smooth(0.4, 1, p)
            return SIMD4((1 - p) * outgoing, 0, p * incoming, 1)
        }
        // Another colour and phase: at the middle with phase 0 each picture is half white.
        let kernel = try #require(TransitionCatalogue.kernel("fade-color", ["color": .color([1, 1, 1, 1]), "color_phase": .number(0)]))
        let out = KernelFixture.render(kernel, 0.5, KernelFixture.solid(red), KernelFixture.solid(blue))
        // smoothstep(1, 0, ½) = smoothstep(0, 1, ½) = ½: (1, ½, ½) and (½, ½, 1), mixed by ½.
        let expected = SIMD4<Float>(0.75, 0.5, 0.75, 1), d = out[3, 3] - expected
        #expect(max(abs(d.x), abs(d.y), abs(d.z), abs(d.w)) < 1e-6, "\(out[3, 3])")
    }

    @Test func fadeGrayscaleTurnsGreyBetween() throws {
        let a = SIMD4<Float>(1, 0.5, 0, 1), b = SIMD4<Float>(0, 0.25, 1, 1)
        let greyA: Float = 0.2126 + 0.7152 * 0.5, greyB: Float = 0.7152 * 0.25 + 0.0722
        try C.frames("fade-grayscale", from: KernelFixture.solid(a), to: KernelFixture.solid(b), at: [0, 0.25, 0.5, 0.75, 1], tolerance: 1e-6) { _, p in
            let wa = C.smooth(0.7, 0, p), wb = C.smooth(0.3, 1, p)
            let outgoing = SIMD4(SIMD3(repeating: greyA), 1) * (1 - wa) + a * wa
            let incoming = SIMD4(SIMD3(repeating: greyB), 1) * (1 - wb) + b * wb
            return outgoing * (1 - p) + incoming * p
        }
    }

    @Test func multiplyBlendIsTheProductAtTheMiddle() throws {
        let a = SIMD4<Float>(0.8, 0.5, 0.2, 1), b = SIMD4<Float>(0.5, 0.4, 1, 1), product = a * b
        try C.frames("multiply-blend", from: KernelFixture.solid(a), to: KernelFixture.solid(b), at: [0, 0.25, 0.5, 0.75, 1], tolerance: 1e-6) { _, p in
            p < 0.5 ? a + (product - a) * (2 * p) : product + (b - product) * (2 * p - 1)
        }
    }

    @Test func colourDistanceSwitchesAlikePixelsFirst() throws {
        // Far apart (distance √2): only the p⁵ fade.
        try C.frames("colour-distance", from: KernelFixture.solid(red), to: KernelFixture.solid(blue), at: [0, 0.25, 0.5, 0.75, 1], tolerance: 1e-6) { _, p in
            let f = p * p * p * p * p
            return red * (1 - f) + blue * f
        }
        // 0.2 apart: switched from p = 0.2 on.
        let a = SIMD4<Float>(0.5, 0.5, 0.5, 1), b = SIMD4<Float>(0.7, 0.5, 0.5, 1)
        try C.frames("colour-distance", from: KernelFixture.solid(a), to: KernelFixture.solid(b), at: [0.1, 0.25, 0.5], tolerance: 1e-6) { _, p in
            let f = p * p * p * p * p
            return p >= 0.2 ? b : a * (1 - f) + b * f
        }
    }

    @Test func glitchMemoriesShiftsTheChannelsByTheFramesOffset() throws {
        try C.frames("glitch-memories", from: KernelFixture.ramp(), to: KernelFixture.solid(blue), at: [0, 0.25, 0.5, 0.75, 1], tolerance: 1e-5) { uv, p in
            var shift = SIMD2<Float>.zero
            if p > 0 {
                let n = SIMD2((p * 1200).rounded(.down) / 64, (p * 3500).rounded(.down) / 64)
                shift = (n - n.rounded(.down) - 0.5) * 0.3 * (1 - p)
            }
            let r = C.rampValue(uv + 0.2 * shift).x, g = C.rampValue(uv + 0.3 * shift).y
            return SIMD4((1 - p) * r, (1 - p) * g, (1 - p) * 0.5 + p, 1)
        }
    }

    @Test func linearBlurAveragesAnOffCentreGrid() throws {
        let margin: Float = 0.06
        try C.frames("linear-blur", from: KernelFixture.ramp(), to: KernelFixture.solid(blue), at: [0, 0.25, 0.5, 0.75, 1], tolerance: 1e-5) { uv, p in
            // Away from the edges the mean of a linear picture is its value at the mean offset,
            // (mean of i/6 − ½ for i = 0…5 = −1/12) times the spread.
            guard uv.x > margin, uv.x < 1 - margin, uv.y > margin, uv.y < 1 - margin else { return nil }
            let spread = 0.1 * (0.5 - abs(0.5 - p))
            return C.rampValue(uv - spread / 12) * (1 - p) + blue * p
        }
    }
}
