import Foundation
import Testing
@testable import TransitionKernels

/// What the kernels' tests share: solid and ramp pictures, the ramp's value at any uv worked out
/// from its definition (so a test can say where a warped kernel must read), and a checker that
/// renders a kernel and compares each pixel with the test's own expectation.
enum KernelCheck {
    static let red = SIMD4<Float>(1, 0, 0, 1), blue = SIMD4<Float>(0, 0, 1, 1)
    static let redPicture = KernelFixture.solid(red), bluePicture = KernelFixture.solid(blue)
    /// Two ramps told apart by their blue: 0.25 for the outgoing picture, 0.75 for the incoming one.
    static let fromRamp = tintedRamp(0.25), toRamp = tintedRamp(0.75)

    /// KernelFixture's ramp with blue `b`: pixel (x, y) is (x/(w − 1), y/(h − 1), b, 1).
    static func tintedRamp(_ b: Float) -> TransitionPicture {
        let picture = KernelFixture.ramp()
        for i in 0..<(picture.width * picture.height) { picture.pixels[i].z = b }
        return picture
    }

    /// A tinted ramp read at `uv` as a GL texture reads it (bilinear between pixel centres,
    /// clamped at the edge): the ramp is linear in the pixel position, so its value at the
    /// (clamped) position is exact.
    static func ramp(_ uv: SIMD2<Float>, _ b: Float) -> SIMD4<Float> {
        let w = Float(KernelFixture.width), h = Float(KernelFixture.height)
        let x = min(max(uv.x * w - 0.5, 0), w - 1), y = min(max((1 - uv.y) * h - 0.5, 0), h - 1)
        return SIMD4(x / (w - 1), y / (h - 1), b, 1)
    }
    static func fromRamp(_ uv: SIMD2<Float>) -> SIMD4<Float> { ramp(uv, 0.25) }
    static func toRamp(_ uv: SIMD2<Float>) -> SIMD4<Float> { ramp(uv, 0.75) }

    /// Red mixed towards blue by `m`.
    static func blend(_ m: Float) -> SIMD4<Float> { SIMD4(1 - m, 0, m, 1) }
    static func mix4(_ a: SIMD4<Float>, _ b: SIMD4<Float>, _ t: Float) -> SIMD4<Float> { a * (1 - t) + b * t }

    /// The Hermite smoothstep, written out (edges either way round).
    static func hermite(_ e0: Float, _ e1: Float, _ x: Float) -> Float {
        let t = min(max((x - e0) / (e1 - e0), 0), 1)
        return t * t * (3 - 2 * t)
    }

    /// Renders `name` with `values` from `from` to `to` at each progress and compares every
    /// pixel with `expected(uv, progress)` (nil: not checked, e.g. right on a soft edge).
    /// Returns how many pixels were checked at each progress, and of those how many show the
    /// outgoing and the incoming picture unchanged (within the tolerance), so a test can make
    /// sure its frames are not trivially all one picture.
    @discardableResult
    static func frames(_ name: String, _ values: [String: TransitionValue] = [:],
                       from: TransitionPicture = redPicture, to: TransitionPicture = bluePicture,
                       progresses: [Double] = [0, 0.25, 0.5, 0.75, 1], tolerance: Float = 1e-4,
                       sourceLocation: SourceLocation = #_sourceLocation,
                       _ expected: (SIMD2<Float>, Float) -> SIMD4<Float>?) -> [Double: (checked: Int, from: Int, to: Int)] {
        guard let kernel = TransitionCatalogue.kernel(name, values) else {
            Issue.record("no kernel \(name)", sourceLocation: sourceLocation)
            return [:]
        }
        var counts: [Double: (checked: Int, from: Int, to: Int)] = [:]
        for progress in progresses {
            let out = KernelFixture.render(kernel, progress, from, to)
            var checked = 0, fromCount = 0, toCount = 0, failures = 0
            for (x, y) in KernelFixture.samplePoints(out) {
                guard let want = expected(uv(x, y), Float(progress)) else { continue }
                checked += 1
                let got = out[x, y]
                if close(got, from[x, y], tolerance) { fromCount += 1 }
                if close(got, to[x, y], tolerance) { toCount += 1 }
                if !close(got, want, tolerance) {
                    failures += 1
                    if failures <= 5 {
                        Issue.record("\(name) at \(progress), pixel (\(x), \(y)): \(got), expected \(want)", sourceLocation: sourceLocation)
                    }
                }
            }
            if failures > 5 { Issue.record("\(name) at \(progress): \(failures) pixels differ", sourceLocation: sourceLocation) }
            counts[progress] = (checked, fromCount, toCount)
        }
        return counts
    }

    /// Expects that at each progress strictly between 0 and 1 the frame shows both pictures on
    /// at least `minimum` pixels each.
    static func expectBoth(_ counts: [Double: (checked: Int, from: Int, to: Int)], minimum: Int = 10,
                           sourceLocation: SourceLocation = #_sourceLocation) {
        for (progress, c) in counts where progress > 0 && progress < 1 {
            #expect(c.from >= minimum && c.to >= minimum, "at \(progress): \(c.from) outgoing, \(c.to) incoming pixels", sourceLocation: sourceLocation)
        }
    }

    static func close(_ a: SIMD4<Float>, _ b: SIMD4<Float>, _ tolerance: Float) -> Bool {
        !(0..<4).contains { abs(a[$0] - b[$0]) > tolerance }
    }

    /// The uv of pixel (x, y)'s centre with the renderer's own rounding ((x + ½)·(1/w),
    /// 1 − (y + ½)·(1/h)), so that the pseudo-random hash of it is the kernel's.
    static func uv(_ x: Int, _ y: Int) -> SIMD2<Float> {
        let du = 1 / Float(KernelFixture.width), dv = 1 / Float(KernelFixture.height)
        return SIMD2((Float(x) + 0.5) * du, 1 - (Float(y) + 0.5) * dv)
    }

    /// The angle of (x, y) by Foundation (an implementation independent of the kernels').
    static func angle(_ y: Float, _ x: Float) -> Float { Float(Foundation.atan2(Double(y), Double(x))) }
}
