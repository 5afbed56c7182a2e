import Foundation
import Testing
@testable import TransitionKernels

/// The kinds that render in passes (a blur of the cross-fade rather than a cross-fade of blurs,
/// a box blur split by axis) against the original's formula worked out here read by read, on
/// pictures of noise (where no read is like its neighbour's, unlike the ramps): every pixel
/// within Float rounding of it. And the passes give the same bytes however the rows are cut
/// into bands and whatever the workspace held from the frame before.
@Suite struct PassTests {
    /// Premultiplied colours from a fixed xorshift: alpha in ½…1, each channel 0…alpha.
    static func noise(seed: UInt64, width: Int = KernelFixture.width, height: Int = KernelFixture.height) -> TransitionPicture {
        var s = seed
        func next() -> Float {
            s ^= s << 13; s ^= s >> 7; s ^= s << 17
            return Float(s >> 40) / Float(1 << 24)
        }
        let picture = TransitionPicture(width: width, height: height)
        for i in 0..<(width * height) {
            let a = 0.5 + next() / 2
            picture.pixels[i] = SIMD4(next() * a, next() * a, next() * a, a)
        }
        return picture
    }

    static let from = noise(seed: 0x9E37_79B9_7F4A_7C15), to = noise(seed: 0xD1B5_4A32_D192_ED03)
    static let progresses: [Double] = [0, 0.1, 0.25, 0.4, 0.5, 0.6, 0.75, 0.9, 1]

    /// Every pixel of `name`'s frames within `tolerance` of `expected` (clamped as the renderer does).
    static func check(_ name: String, tolerance: Float, sourceLocation: SourceLocation = #_sourceLocation,
                      _ expected: (SIMD2<Float>, Float) -> SIMD4<Float>) throws {
        let kernel = try #require(TransitionCatalogue.kernel(name, [:]))
        for progress in progresses {
            let out = KernelFixture.render(kernel, progress, from, to)
            var failures = 0, worst: Float = 0, first = ""
            for (x, y) in KernelFixture.samplePoints(out) {
                let want = TransitionRenderer.stored(expected(KernelCheck.uv(x, y), Float(progress)))
                let diff = out[x, y] - want
                let d = max(abs(diff.x), abs(diff.y), abs(diff.z), abs(diff.w))
                worst = max(worst, d)
                if d > tolerance {
                    if failures == 0 { first = "pixel (\(x), \(y)) is \(out[x, y]), expected \(want)" }
                    failures += 1
                }
            }
            #expect(failures == 0, "\(name) at \(progress): \(failures) pixels off by up to \(worst), first \(first)", sourceLocation: sourceLocation)
        }
    }

    @Test func crossZoomBlursTheMixAsTheOriginalMixesTheBlurs() throws {
        try Self.check("cross-zoom", tolerance: 2e-6) { uv, p in
            let center = SIMD2<Float>(0.25 + 0.5 * p, 0.5)
            let blur = Float(0.2 * (1 - Foundation.cos(2 * Double.pi * Double(p))))
            let dissolve: Float = p == 0 ? 0 : p == 1 ? 1 : p < 0.5 ? Float(0.5 * Foundation.pow(2, 10 * (2 * Double(p) - 1)))
                : Float(1 - 0.5 * Foundation.pow(2, -10 * (2 * Double(p) - 1)))
            let jitter = random(uv)
            var a = SIMD4<Float>(), b = SIMD4<Float>(), total: Float = 0
            for i in 0...40 {
                let t = (Float(i) + jitter) / 40, weight = 4 * (t - t * t)
                let at = uv + (center - uv) * blur * t
                a += Self.from.color(at) * weight
                b += Self.to.color(at) * weight
                total += weight
            }
            return (a * (1 - dissolve) + b * dissolve) / total
        }
    }

    @Test func linearBlurSplitByAxisIsTheOriginalsGridOfReads() throws {
        try Self.check("linear-blur", tolerance: 2e-6) { uv, p in
            let spread = 0.1 * (0.5 - abs(0.5 - p))
            var a = SIMD4<Float>(), b = SIMD4<Float>()
            for i in 0..<6 {
                for j in 0..<6 {
                    let at = uv + SIMD2(Float(i) / 6 - 0.5, Float(j) / 6 - 0.5) * spread
                    a += Self.from.color(at)
                    b += Self.to.color(at)
                }
            }
            return (a * (1 - p) + b * p) / 36
        }
    }

    /// Each kind, rendered in one band with a fresh workspace and in seven uneven bands with a
    /// workspace that rendered another progress (and another size) before, gives the same bits.
    @Test func bandsAndWorkspacesChangeNothing() {
        let shared = TransitionWorkspace()
        let small = TransitionPicture(width: 16, height: 9)
        for kind in TransitionCatalogue.all {
            let kernel = KernelFixture.atDefaults(kind)
            for progress in [0.3, 0.7] {
                TransitionRenderer.render(kernel, progress: 1 - progress, from: Self.noise(seed: 7, width: 16, height: 9),
                                          to: small, into: TransitionPicture(width: 16, height: 9), workspace: shared)
                TransitionRenderer.render(kernel, progress: progress / 2, from: Self.to, to: Self.from,
                                          into: TransitionPicture(width: Self.from.width, height: Self.from.height), workspace: shared)
                let whole = KernelFixture.render(kernel, progress, Self.from, Self.to)
                let banded = TransitionPicture(width: whole.width, height: whole.height)
                let height = whole.height
                TransitionRenderer.render(kernel, progress: progress, from: Self.from, to: Self.to, into: banded, workspace: shared) { body in
                    for band in (0..<7).reversed() { body(height * band * band / 49..<height * (band + 1) * (band + 1) / 49) }
                }
                let same = (0..<(whole.width * whole.height)).allSatisfy { whole.pixels[$0] == banded.pixels[$0] }
                #expect(same, "\(kind.declaration.name) at \(progress)")
            }
        }
    }
}
