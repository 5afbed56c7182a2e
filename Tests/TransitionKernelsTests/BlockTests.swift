import Foundation
import Testing
@testable import TransitionKernels

/// The block family: pixelize, hexagonalize, mosaic.
@Suite struct BlockTests {
    typealias C = PixelCheck
    let blue = PixelCheck.blue

    @Test func pixelizeReadsEachSquaresCentre() throws {
        try C.frames("pixelize", from: KernelFixture.ramp(), to: KernelFixture.solid(blue), at: [0, 0.25, 0.5, 0.75, 1], tolerance: 1e-5) { uv, p in
            // Squares 2·⌈min(p, 1 − p)·50⌉/50/20 of the frame.
            let size = 2 * (min(p, 1 - p) * 50).rounded(.up) / 50 / 20
            var point = uv
            if size > 0 {
                let cell = uv / size
                let f = cell - cell.rounded(.down)
                guard f.x > 1e-3, f.x < 1 - 1e-3, f.y > 1e-3, f.y < 1 - 1e-3 else { return nil }
                point = (cell.rounded(.down) + 0.5) * size
            }
            return C.rampValue(point) * (1 - p) + blue * p
        }
    }

    @Test func hexagonalizeReadsTheNearestHexagonCentre() throws {
        let ratio = Float(KernelFixture.width) / Float(KernelFixture.height), s3 = Float(3).squareRoot()
        try C.frames("hexagonalize", from: KernelFixture.ramp(), to: KernelFixture.solid(blue), at: [0, 0.25, 0.5, 0.75, 1], tolerance: 1e-4) { uv, p in
            let dist = (2 * min(p, 1 - p) * 50).rounded(.up) / 50
            guard dist > 0 else { return C.rampValue(uv) * (1 - p) + blue * p }
            let size = s3 / 3 * dist / 20
            // In hexagon units (circumradius 1, the grid centred, y over the ratio): the centres
            // are i·(√3, 0) + j·(√3/2, 3/2). The nearest one (clearly nearer than any other).
            let point = SIMD2((uv.x - 0.5) / size, (uv.y / ratio - 0.5) / size)
            var best = Float.infinity, second = Float.infinity, centre = SIMD2<Float>.zero
            let j0 = Int((point.y / 1.5).rounded()), i0 = Int(((point.x - Float(j0) * s3 / 2) / s3).rounded())
            for j in (j0 - 2)...(j0 + 2) {
                for i in (i0 - 2)...(i0 + 2) {
                    let c = SIMD2(Float(i) * s3 + Float(j) * s3 / 2, Float(j) * 1.5)
                    let d = ((point - c) * (point - c)).sum()
                    if d < best { second = best; best = d; centre = c } else if d < second { second = d }
                }
            }
            guard second - best > 1e-3 else { return nil }
            let read = SIMD2(centre.x * size + 0.5, (centre.y * size + 0.5) * ratio)
            return C.rampValue(read) * (1 - p) + blue * p
        }
    }

    @Test func mosaicPansOverTurnedTilesToTheEndTile() throws {
        try C.frames("mosaic", from: KernelFixture.ramp(), to: KernelFixture.solid(blue), at: [0, 0.25, 0.5, 0.75, 1], tolerance: 1e-4) { uv, p in
            let zoom = 3 - 2 * (2 * p - 1) * (2 * p - 1)
            let ease = Float((1 - Foundation.cos(Double(p) * Double.pi)) / 2)
            let point = (uv - 0.5) * zoom + SIMD2<Float>(0.5, 0.5) + SIMD2<Float>(2, -1) * (ease * ease)
            let tile = point.rounded(.down), f = point - tile
            guard f.x > 1e-3, f.x < 1 - 1e-3, f.y > 1e-3, f.y < 1 - 1e-3 else { return nil }
            if tile == SIMD2(2, -1) { return blue }
            let r = random(tile)
            if r > 0.5 { return blue }
            // Turned by −⌊4r⌋·90° about the tile's centre.
            let angle = -Double(Int(r * 4)) * Double.pi / 2
            let c = Float(Foundation.cos(angle)), s = Float(Foundation.sin(angle)), d = f - 0.5
            return C.rampValue(SIMD2(c * d.x - s * d.y, s * d.x + c * d.y) + 0.5)
        }
    }

    @Test func theRandomNumbersAreTheOneLinersInDouble() {
        // fract(sin(2·12.9898)·43758.5453) and the mod-3.14 variant at (1, 2), worked out in Python.
        #expect(abs(random(SIMD2(2, 0)) - 0.05721816935692914) < 1e-6)
        #expect(abs(random(SIMD2(1, 1)) - 0.740084824198675) < 1e-6)
        let d = 12.98980045318603515625 + 2 * 78.233, reduced = d - 3.14 * (d / 3.14).rounded(.down)
        let s = Foundation.sin(reduced) * 43758.5453
        #expect(abs(reducedRandom(SIMD2(1, 2), a: 12.9898) - Float(s - s.rounded(.down))) < 1e-6)
    }
}
