import Foundation
import Testing
@testable import TransitionKernels

/// Transitions that stage the pictures as objects: faces of a cube, doors, cards, tiles, a page.
@Suite struct SceneTests {
    typealias K = KernelCheck

    static func inside(_ p: SIMD2<Float>) -> Bool { p.x > 0 && p.y > 0 && p.x < 1 && p.y < 1 }
    /// Whether `p` is within `margin` of the unit square's edge (where rounding may decide).
    static func nearEdge(_ p: SIMD2<Float>, _ margin: Float = 1e-4) -> Bool {
        abs(p.x) < margin || abs(p.y) < margin || abs(p.x - 1) < margin || abs(p.y - 1) < margin
    }
    /// The floor's reflection of a picture point `p` (y mirrored 1.2 times as tall, `drop` lower)
    /// of colour `c`: c·reflection·(1 − y) if it lands in the picture.
    static func reflection(_ p: SIMD2<Float>, _ c: SIMD4<Float>, _ drop: Float, _ strength: Float) -> (SIMD3<Float>, Bool)? {
        let m = SIMD2(p.x, -1.2 * p.y - drop)
        if nearEdge(m) { return nil }
        return inside(m) ? (SIMD3(c.x, c.y, c.z) * strength * (1 - m.y), true) : (.zero, false)
    }

    @Test func cubeTurnsFromRightToLeft() {
        // The outgoing face is a trapezoid from x = p (full height) to x = 1, where its height is
        // s = 1 − 0.3p about the middle; the incoming one from x = 0, height p² + 0.7(1 − p²),
        // to x = p, full height; the frame is first zoomed out by uz = 0.6·(½ − |½ − p|).
        let counts = K.frames("cube") { uv, p in
            let uz = 0.6 * (0.5 - abs(0.5 - p))
            let q = -uz / 2 + (1 + uz) * uv
            let fx = (q.x - p) / (1 - p), fs = 1 - 0.3 * p
            let fromP = SIMD2(fx, (q.y - 0.5 * (1 - fs) * fx) / (1 + (fs - 1) * fx))
            let tx = 1 - q.x / p, ts = p * p + 0.7 * (1 - p * p)
            let toP = SIMD2(1 - tx, (q.y - 0.5 * (1 - ts) * tx) / (1 + (ts - 1) * tx))
            if Self.nearEdge(fromP) || Self.nearEdge(toP) { return nil }
            if Self.inside(fromP) { return K.red }
            if Self.inside(toP) { return K.blue }
            guard let (a, _) = Self.reflection(fromP, K.red, 0.03, 0.4), let (b, _) = Self.reflection(toP, K.blue, 0.03, 0.4) else { return nil }
            return SIMD4(a + b, 1)
        }
        K.expectBoth(counts)
        #expect(counts[0]!.from == 64 * 36 && counts[1]!.to == 64 * 36)
        // The incoming face is on the left.
        let out = KernelFixture.render(TransitionCatalogue.kernel("cube", [:])!, 0.5, K.redPicture, K.bluePicture)
        #expect(out[16, 18] == K.blue && out[48, 18] == K.red)
    }

    @Test func doorwayOpensTheOutgoingPictureLikeDoors() {
        // Doors where |u − ½| > p/2: each half moved out by p/2 and squeezed by
        // k = 1/(1 + 0.4p(1 − slit)) about y = k/2; the incoming picture zoomed out 3 − 2p times
        // between them, over a floor reflecting it (0.4, 0.02 lower).
        let counts = K.frames("doorway", from: K.fromRamp, to: K.bluePicture) { uv, p in
            let slit = 2 * abs(uv.x - 0.5) - p
            if abs(slit) < 1e-4 { return nil }
            if slit > 0 {
                let k = 1 / (1 + 0.4 * p * (1 - slit))
                let door = SIMD2(uv.x + (uv.x > 0.5 ? -p / 2 : p / 2), (uv.y - k / 2) * k + k / 2)
                if Self.inside(door) { return K.fromRamp(door) }
            }
            let toP = (uv - 0.5) * (3 - 2 * p) + 0.5
            if Self.nearEdge(toP) { return nil }
            if Self.inside(toP) { return K.blue }
            guard let (c, _) = Self.reflection(toP, K.blue, 0.02, 0.4) else { return nil }
            return SIMD4(c, 1)
        }
        #expect(counts[0]!.from == 64 * 36 && counts[1]!.to == 64 * 36)
        #expect(counts[0.5]!.to > 0)
    }

    @Test func swapExchangesThePicturesLikeCards() {
        let counts = K.frames("swap") { uv, p in
            let fs = 1 + 2 * p, ts = 3 - 2 * p
            let fromP = SIMD2(uv.x * fs / (1 - 0.2 * p), (uv.y - 0.5) * fs / (1 - fs * 0.2 * p * uv.x) + 0.5)
            let toP = SIMD2((uv.x - 1) * ts / (1 - 0.2 * (1 - p)) + 1, (uv.y - 0.5) * ts / (1 - ts * 0.2 * (1 - p) * (0.5 - uv.x)) + 0.5)
            if Self.nearEdge(fromP) || Self.nearEdge(toP) { return nil }
            let fromIn = Self.inside(fromP), toIn = Self.inside(toP)
            // The outgoing card is in front until halfway.
            if fromIn && (p < 0.5 || !toIn) { return K.red }
            if toIn { return K.blue }
            guard let (a, _) = Self.reflection(fromP, K.red, 0.02, 0.4), let (b, _) = Self.reflection(toP, K.blue, 0.02, 0.4) else { return nil }
            return SIMD4(a + b, 1)
        }
        K.expectBoth(counts)
        #expect(counts[0]!.from == 64 * 36 && counts[1]!.to == 64 * 36)
    }

    @Test func gridFlipFlipsTilesBetweenDividers() {
        // 4 × 4 tiles (16 × 9 pixels here); dividers within 0.25·0.05 of a tile edge.
        let black = SIMD4<Float>(0, 0, 0, 1)
        let counts = K.frames("grid-flip", progresses: [0, 0.05, 0.25, 0.5, 0.75, 0.95, 1]) { uv, p in
            let cell = (uv * 4).rounded(.down)
            let f = uv * 4 - cell  // position in the tile, 0…1
            let edge = min(f.x, 1 - f.x, f.y, 1 - f.y) / 4
            if abs(edge - 0.0125) < 1e-4 { return nil }
            let divider = edge < 0.0125
            if p < 0.1 { return divider ? K.mix4(black, K.red, 1 - p / 0.1) : K.red }
            if p >= 0.9 { return divider ? K.mix4(black, K.blue, (p - 0.9) / 0.1) : K.blue }
            if divider { return black }
            let flip = K.hermite(0, 1 - (random(cell) - 0.1), (p - 0.1) / 0.8)
            let width = abs(flip - 0.5)
            if abs(abs(f.x - 0.5) - width) < 1e-4 { return nil }
            return abs(f.x - 0.5) > width ? black : (flip <= 0.5 ? K.red : K.blue)
        }
        K.expectBoth(counts.filter { $0.key == 0.25 || $0.key == 0.5 }, minimum: 1)
        #expect(counts[0]!.from == 64 * 36 && counts[1]!.to == 64 * 36)
    }

    @Test func invertedPageCurlPeelsTheOutgoingPictureFromTheBottomRight() {
        // In the page's frame (turned by −100°), y′ = −sin100°·u + cos100°·v + 0.89; the cylinder
        // (radius 1/2π) is at y′ = 1.66p − 0.16: the page lies flat beyond it and has gone before it,
        // where the incoming picture shows, at most darkened by the page's shadow.
        let radius = Float(1 / (2 * Double.pi))
        let s = Float(Foundation.sin(100 * Double.pi / 180)), c = Float(Foundation.cos(100 * Double.pi / 180))
        var shadowed = 0
        let counts = K.frames("inverted-page-curl", progresses: [0.25, 0.5, 0.75, 1]) { uv, p in
            let yc = -s * uv.x + c * uv.y + 0.89 - (1.66 * p - 0.16)
            if yc > radius + 1e-4 { return K.red }
            return nil  // on the cylinder, or behind it (checked below)
        }
        #expect(counts[0.25]!.from > 0 && counts[0.5]!.from > 0)
        #expect(counts[1]!.checked == 0)
        // Behind the cylinder: the incoming picture, darkened (never lightened) by the shadow.
        let kernel = TransitionCatalogue.kernel("inverted-page-curl", [:])!
        for p in [0.25, 0.5, 0.75, 1] as [Float] {
            let out = KernelFixture.render(kernel, Double(p), K.redPicture, K.bluePicture)
            var behind = 0
            for (x, y) in KernelFixture.samplePoints(out) {
                let uv = KernelFixture.uv(x, y, out)
                guard -s * uv.x + c * uv.y + 0.89 - (1.66 * p - 0.16) < -radius - 1e-4 else { continue }
                behind += 1
                let got = out[x, y]
                #expect(got.x == 0 && got.y == 0 && got.z <= 1 && got.z > 0.4 && got.w == 1, "at \(p), (\(x), \(y)): \(got)")
                if got.z < 1 { shadowed += 1 }
            }
            #expect(behind > 0)
            if p == 1 { #expect(behind == 64 * 36) }
        }
        #expect(shadowed > 0)
        // The curl starts at the bottom-right corner.
        let early = KernelFixture.render(kernel, 0.25, K.redPicture, K.bluePicture)
        #expect(early[63, 35] != K.red && early[0, 0] == K.red)
    }
}
