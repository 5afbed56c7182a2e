import Testing
@testable import TransitionKernels

/// The kinds that take a picture (gl-transitions' `sampler2D` parameters): luma orders the
/// change by the map's brightness, displacement pushes both pictures sideways by it.
@Suite struct PictureParameterTests {
    typealias K = KernelCheck
    /// A map whose red grows left to right: pixel x of 64 is x / 63 (KernelFixture's ramp).
    let map = KernelFixture.ramp()

    @Test func lumaShowsTheIncomingClipWhereTheMapIsBelowProgress() {
        let counts = K.frames("luma", ["luminance_map": .picture(map)], progresses: [0.25, 0.5, 0.75], tolerance: 0) { uv, p in
            // The map read at uv is exactly the ramp there: (x − ½ clamped) / 63 along x.
            let level = K.ramp(uv, 0).x
            return level >= p ? K.red : K.blue
        }
        K.expectBoth(counts)
        // At 25 % about a quarter of the columns have changed, at 75 % three quarters.
        #expect(counts[0.25].map { abs(Double($0.to) / Double($0.checked) - 0.25) < 0.03 } == true, "\(String(describing: counts[0.25]))")
        #expect(counts[0.75].map { abs(Double($0.to) / Double($0.checked) - 0.75) < 0.03 } == true, "\(String(describing: counts[0.75]))")
    }

    @Test func displacementReadsEachPictureShiftedByTheMap() {
        let strength: Float = 0.3
        let counts = K.frames("displacement", ["displacement_map": .picture(map), "strength": .number(Double(strength))],
                              from: K.fromRamp, to: K.toRamp, progresses: [0.25, 0.5, 0.75], tolerance: 1e-5) { uv, p in
            let d = K.ramp(uv, 0).x * strength
            let outgoing = K.fromRamp(SIMD2(uv.x + p * d, uv.y)), incoming = K.toRamp(SIMD2(uv.x - (1 - p) * d, uv.y))
            return K.mix4(outgoing, incoming, p)
        }
        #expect(counts.values.allSatisfy { $0.checked == KernelFixture.width * KernelFixture.height })
        // Where the map is black (the first column) nothing moves: a plain cross-fade of the ramps.
        let kernel = TransitionCatalogue.kernel("displacement", ["displacement_map": .picture(map), "strength": .number(0.3)])!
        let out = KernelFixture.render(kernel, 0.5, K.fromRamp, K.toRamp)
        let plain = K.mix4(K.fromRamp[0, 10], K.toRamp[0, 10], 0.5)
        #expect(K.close(out[0, 10], plain, 1e-6), "\(out[0, 10]) vs \(plain)")
        // Where it is white (the last column) the outgoing picture is read half of 0.3 further right (clamped at the edge).
        #expect(!K.close(out[63, 10], K.mix4(K.fromRamp[63, 10], K.toRamp[63, 10], 0.5), 1e-3))
    }
}
