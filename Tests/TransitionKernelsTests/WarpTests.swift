import Foundation
import Testing
@testable import TransitionKernels

/// Transitions that read the pictures elsewhere than the pixel (zooms, waves, twists): checked
/// on the ramps, whose colour tells where they were read.
@Suite struct WarpTests {
    typealias K = KernelCheck
    static let ratio = Float(KernelFixture.width) / Float(KernelFixture.height)
    static func cos(_ x: Float) -> Float { Float(Foundation.cos(Double(x))) }
    static func sin(_ x: Float) -> Float { Float(Foundation.sin(Double(x))) }

    @Test func crossZoomDissolvesOnAnExponentialEaseBehindAZoomBlur() {
        // Blurring a solid leaves it: only the cross-fade shows, 2⁻⁵/2 at ¼, ½ at ½, 1 − 2⁻⁵/2 at ¾.
        let dissolve: [Float: Float] = [0: 0, 0.25: 1.0 / 64, 0.5: 0.5, 0.75: 1 - 1.0 / 64, 1: 1]
        K.frames("cross-zoom") { _, p in K.blend(dissolve[p]!) }
        // On the ramps (linear, so an average of reads is the read at the average position) the
        // blur reads on average at uv + (centre − uv)·strength·t̄, the centre (¼ + ½p, ½), the
        // strength 0.2·(1 − cos 2πp), t̄ the parabola-weighted mean of the 41 jittered steps.
        K.frames("cross-zoom", from: K.fromRamp, to: K.toRamp) { uv, p in
            guard uv.x > 0.05, uv.x < 0.95, uv.y > 0.05, uv.y < 0.95 else { return nil }
            let jitter = random(uv)
            var sum: Float = 0, weights: Float = 0
            for i in 0...40 {
                let t = (Float(i) + jitter) / 40
                sum += 4 * t * (1 - t) * t
                weights += 4 * t * (1 - t)
            }
            let at = uv + (SIMD2(0.25 + 0.5 * p, 0.5) - uv) * (0.2 * (1 - Self.cos(2 * .pi * p))) * (sum / weights)
            return K.mix4(K.fromRamp(at), K.toRamp(at), dissolve[p]!)
        }
    }

    @Test func simpleZoomZoomsIntoTheOutgoingPictureAndFadesTheIncomingOneIn() {
        let counts = K.frames("simple-zoom", from: K.fromRamp, to: K.toRamp) { uv, p in
            let visible = 1 - K.hermite(0, 0.8, p)
            return K.mix4(K.fromRamp(0.5 + (uv - 0.5) * visible), K.toRamp(uv), K.hermite(0.6, 1, p))
        }
        #expect(counts[0]!.from == 64 * 36 && counts[1]!.to == 64 * 36)
        K.frames("simple-zoom", ["zoom_quickness": .number(0.5)], from: K.fromRamp, to: K.toRamp, progresses: [0.25, 0.5]) { uv, p in
            K.mix4(K.fromRamp(0.5 + (uv - 0.5) * (1 - K.hermite(0, 0.5, p))), K.toRamp(uv), K.hermite(0.3, 1, p))
        }
    }

    @Test func zoomInCirclesZoomsRingsThenFadesIn() {
        // Rings of radius ½ + z, 0.8 + 1.5z, 1.2 + 2.5z (r = 2|uv − ½| with y over the ratio),
        // zooming by 1, 1 − 0.15·pro, 1 − 0.2·pro, 1 − 0.25·pro; pro = p/0.8, z = 0.2·pro up to 0.8.
        // Past 0.8, z = 0.2 + 5(pro − 1) and the fade (p − 0.8)/0.07 is halved in the first ring.
        K.frames("zoom-in-circles", from: K.fromRamp, to: K.toRamp, progresses: [0, 0.25, 0.5, 0.75, 0.85, 1]) { uv, p in
            let r = 2 * length(SIMD2(uv.x - 0.5, (uv.y - 0.5) / Self.ratio))
            let pro = p / 0.8
            let z = pro > 1 ? 0.2 + (pro - 1) * 5 : 0.2 * pro
            var fade: Float = pro > 1 ? min((p - 0.8) / 0.07, 1) : 0
            let edges = [0.5 + z, 0.8 + 1.5 * z, 1.2 + 2.5 * z]
            if edges.contains(where: { abs(r - $0) < 1e-4 }) { return nil }
            let k: Float
            if r < edges[0] { k = 1 }
            else if r < edges[1] { k = 1 - 0.15 * pro; fade *= 0.5 }
            else if r < edges[2] { k = 1 - 0.2 * pro; fade *= 0.2 }
            else { k = 1 - 0.25 * pro }
            let at = 0.5 + (uv - 0.5) * k
            return K.mix4(K.fromRamp(at), K.toRamp(at), fade)
        }
    }

    @Test func dreamyWavesBothPicturesAsTheyCrossFade() {
        let counts = K.frames("dreamy", from: K.fromRamp, to: K.toRamp) { uv, p in
            let q = 1 - p
            let fromAt = uv + SIMD2(0, 0.03 * p * Self.cos(10 * (p + uv.x)))
            let toAt = uv + SIMD2(0, 0.03 * q * Self.cos(10 * (q + uv.x)))
            return K.mix4(K.fromRamp(fromAt), K.toRamp(toAt), p)
        }
        #expect(counts[0]!.from == 64 * 36 && counts[1]!.to == 64 * 36)
    }

    @Test func dreamyZoomTurnsAndZoomsIntoAWash() {
        // Turn of 6·π/80 radians at the middle (the original's degree unit), zoom 1.2, wash up to 1.
        K.frames("dreamy-zoom", from: K.fromRamp, to: K.toRamp, progresses: [0, 0.25, 0.5, 0.75, 1]) { uv, p in
            let first = p < 0.5
            let phase = first ? 2 * p : 2 * p - 1
            let angle = (first ? phase : phase - 1) * 6 * .pi / 80
            let zoom = first ? 1 + 0.2 * phase : 1.2 - 0.2 * phase
            let q = (uv - 0.5) / zoom
            let x = q.x * Self.ratio, y = q.y
            let at = SIMD2((Self.cos(angle) * x - Self.sin(angle) * y) / Self.ratio, Self.sin(angle) * x + Self.cos(angle) * y) + 0.5
            let c = first ? K.fromRamp(at) : K.toRamp(at)
            let wash = first ? phase : 1 - phase
            return SIMD4(min(c.x + wash, 1), min(c.y + wash, 1), min(c.z + wash, 1), 1)
        }
    }

    @Test func flyeyeCrossFadesThroughLenses() {
        let counts = K.frames("flyeye", from: K.fromRamp, to: K.toRamp) { uv, p in
            let bump = 0.04 * SIMD2(Self.cos(50 * uv.x), Self.sin(50 * uv.y))
            let incoming = K.toRamp(uv + (1 - p) * bump)
            let outgoing = SIMD4(K.fromRamp(uv + p * bump * 0.7).x, K.fromRamp(uv + p * bump).y, K.fromRamp(uv + p * bump * 1.3).z, 1)
            return incoming * p + outgoing * (1 - p)
        }
        #expect(counts[0]!.from == 64 * 36 && counts[1]!.to == 64 * 36)
    }

    @Test func swirlTwistsAboutTheCentre() {
        let counts = K.frames("swirl", from: K.fromRamp, to: K.toRamp) { uv, p in
            let c = uv - 0.5
            let near = 1 - length(c)
            let theta = near * near * (p <= 0.5 ? 2 * p : 2 - 2 * p) * 8 * 3.14159
            let at = SIMD2(Self.cos(theta) * c.x - Self.sin(theta) * c.y, Self.sin(theta) * c.x + Self.cos(theta) * c.y) + 0.5
            return K.mix4(K.fromRamp(at), K.toRamp(at), p)
        }
        #expect(counts[0]!.from == 64 * 36 && counts[1]!.to == 64 * 36)
    }

    @Test func rippleRipplesTheOutgoingPicture() {
        let counts = K.frames("ripple", from: K.fromRamp, to: K.toRamp) { uv, p in
            let d = uv - 0.5
            let at = uv + d * (Self.sin(p * length(d) * 100 - p * 50) + 0.5) / 30 * p
            return K.mix4(K.fromRamp(at), K.toRamp(uv), K.hermite(0.2, 1, p))
        }
        #expect(counts[0]!.from == 64 * 36 && counts[1]!.to == 64 * 36)
    }

    @Test func waterDropRipplesInsideAGrowingCircle() {
        K.frames("water-drop", from: K.fromRamp, to: K.toRamp) { uv, p in
            let d = uv - 0.5, r = length(d)
            if abs(r - p) < 1e-4 { return nil }
            let at = r > p ? uv : uv + d * Self.sin(r * 30 - p * 30)
            return K.mix4(K.fromRamp(at), K.toRamp(uv), p)
        }
    }
}
