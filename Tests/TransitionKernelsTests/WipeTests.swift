import Testing
@testable import TransitionKernels

/// Wipes whose edge is a straight front, bands or grid cells.
@Suite struct WipeTests {
    typealias K = KernelCheck

    @Test func directionalSlidesThePicturesDown() {
        // Default direction (0, 1): a pixel reads the outgoing picture progress higher up, and
        // past the top the incoming one, wrapped round (so it follows glued to the outgoing one).
        let counts = K.frames("directional", from: K.fromRamp, to: K.toRamp) { uv, p in
            let y = uv.y + p
            return y <= 1 ? K.fromRamp(SIMD2(uv.x, y)) : K.toRamp(SIMD2(uv.x, y - 1))
        }
        #expect(counts[0.5]!.checked == 64 * 36)
        // Another direction: (-2, 0) reads progress to the left (only the sign counts).
        K.frames("directional", ["direction": .vector([-2, 0])], from: K.fromRamp, to: K.toRamp, progresses: [0.25, 0.75]) { uv, p in
            let x = uv.x - p
            return x >= 0 ? K.fromRamp(SIMD2(x, uv.y)) : K.toRamp(SIMD2(x + 1, uv.y))
        }
    }

    @Test func directionalWipeSweepsTowardsTheBottomRight() {
        // Direction (1, −1) scaled to |x| + |y| = 1: the front is the line (u − v)/2 = 1.5·p − ½,
        // the incoming picture behind it (towards the top-left), a 0.5 soft band ahead of it.
        let counts = K.frames("directional-wipe") { uv, p in
            if p == 0 { return K.red }
            let ahead = (uv.x - uv.y) / 2 - (1.5 * p - 0.5)
            return K.blend(1 - K.hermite(-0.5, 0, ahead))
        }
        // (At ¼ and ¾ the soft band still covers the top-left, resp. bottom-right, corner.)
        K.expectBoth(counts.filter { $0.key == 0.5 })
        #expect(counts[0.25]!.to == 0 && counts[0.75]!.from == 0)
        K.frames("directional-wipe", ["direction": .vector([0, 1]), "smoothness": .number(0)], progresses: [0.25, 0.5]) { uv, p in
            // Upwards with a hard edge at v = p: below it the incoming picture.
            abs(uv.y - p) < 1e-3 ? nil : (uv.y < p ? K.blue : K.red)
        }
    }

    @Test func directionalWarpZoomsBothPicturesAboutTheFront() {
        // Direction (−1, 1): the front is the line (v − u)/2 = 1.1·p − ½, soft over 0.1; the
        // outgoing picture is read at ½ + (uv − ½)(1 − m), the incoming one at ½ + (uv − ½)·m.
        let counts = K.frames("directional-warp", from: K.fromRamp, to: K.toRamp) { uv, p in
            let ahead = (uv.y - uv.x) / 2 - (1.1 * p - 0.5)
            let m = 1 - K.hermite(-0.1, 0, ahead)
            return K.mix4(K.fromRamp(0.5 + (uv - 0.5) * (1 - m)), K.toRamp(0.5 + (uv - 0.5) * m), m)
        }
        K.expectBoth(counts)
    }

    @Test func windBlowsTheIncomingPictureInFromTheLeftInRaggedRows() {
        for reversed in [false, true] {
            let counts = K.frames("wind", ["reversed": .boolean(reversed)]) { uv, p in
                let x = reversed ? 1 - uv.x : uv.x
                let ahead = x * 0.8 + 0.2 * random(SIMD2(0, uv.y)) - 1.2 * p
                return K.blend(K.hermite(0, -0.2, ahead))
            }
            K.expectBoth(counts)
        }
        // The left column is reached first.
        let kernel = TransitionCatalogue.kernel("wind", [:])!
        let out = KernelFixture.render(kernel, 0.3, K.redPicture, K.bluePicture)
        #expect(out[0, 10].z > out[63, 10].z)
    }

    @Test func windowSliceOpensSlatsFromTheLeft() {
        // Slat fraction f = fract(10u) shows the incoming picture once f ≥ the front's coverage
        // smoothstep(−0.5, 0, u − 1.5p).
        let counts = K.frames("window-slice") { uv, p in
            let covered = K.hermite(-0.5, 0, uv.x - 1.5 * p)
            let f = (10 * uv.x).truncatingRemainder(dividingBy: 1)
            return abs(f - covered) < 1e-4 ? nil : (f >= covered ? K.blue : K.red)
        }
        K.expectBoth(counts)
    }

    @Test func squaresWireGrowsSquaresInAWaveTowardsTheBottomRight() {
        // Direction (1, −0.5)/1.5 = (2/3, −1/3); the centre projects to 1/6; the front is at
        // 1/6 − ½ + 2.6p, soft over 1.6. A square of half-side ½ − pr/2 in each of the 10 × 10 cells.
        let counts = K.frames("squares-wire") { uv, p in
            if p == 0 { return K.red }
            let pr = K.hermite(-1.6, 0, (2 * uv.x - uv.y) / 3 - (1.0 / 6 - 0.5 + 2.6 * p))
            let q = uv * 10 - (uv * 10).rounded(.down)
            let inset = min(q.x, q.y, 1 - q.x, 1 - q.y) - pr / 2
            return abs(inset) < 1e-4 ? nil : (inset >= 0 ? K.blue : K.red)
        }
        K.expectBoth(counts)
    }

    @Test func randomSquaresTurnCellByCell() {
        // Each of the 10 × 10 cells turns when progress·1.5 passes its random threshold, over 0.5.
        let counts = K.frames("random-squares") { uv, p in
            let cell = (uv * 10).rounded(.down)
            return K.blend(K.hermite(0, -0.5, random(cell) - 1.5 * p))
        }
        K.expectBoth(counts.filter { $0.key == 0.5 })
        K.frames("random-squares", ["size": .vector([2, 3]), "smoothness": .number(0)], progresses: [0.5]) { uv, p in
            let cell = (uv * SIMD2(2, 3)).rounded(.down)
            return random(cell) < p ? K.blue : K.red
        }
    }

    @Test func windowBlindsFadesAlternateBandsFaster() {
        // ⌊100·p·v⌋ bands; the even ones mix 1.5·p of the way, the odd ones p; eased to p after 0.8.
        // The fast bands overshoot (factor above 1, extrapolating beyond the incoming picture) and are clamped.
        let counts = K.frames("window-blinds", from: K.fromRamp, to: K.toRamp, progresses: [0, 0.25, 0.5, 0.75, 0.9, 1]) { uv, p in
            let band = (uv.y * 100 * p).rounded(.down)
            let t = band.truncatingRemainder(dividingBy: 2) == 0 ? 1.5 * p : p
            let c = K.mix4(K.fromRamp(uv), K.toRamp(uv), t + (p - t) * K.hermite(0.8, 1, p))
            return SIMD4(min(max(c.x, 0), 1), min(max(c.y, 0), 1), min(max(c.z, 0), 1), 1)
        }
        #expect(counts[1]!.to == 64 * 36)
    }
}
