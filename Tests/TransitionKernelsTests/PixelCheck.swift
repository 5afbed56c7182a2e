import Testing
@testable import TransitionKernels

/// What the kernels' tests share: the ramps' exact bilinear values (a ramp is linear, so a GL
/// texture read of it anywhere is the linear function clamped at the outer pixel centres), and
/// a frame check that compares every pixel with an expectation computed from the maths.
enum PixelCheck {
    static let red = SIMD4<Float>(1, 0, 0, 1), blue = SIMD4<Float>(0, 0, 1, 1), black = SIMD4<Float>(0, 0, 0, 1)

    /// KernelFixture.ramp()'s colour read at `uv`.
    static func rampValue(_ uv: SIMD2<Float>, width: Int = KernelFixture.width, height: Int = KernelFixture.height) -> SIMD4<Float> {
        let x = min(max(uv.x * Float(width) - 0.5, 0), Float(width - 1)), y = min(max((1 - uv.y) * Float(height) - 0.5, 0), Float(height - 1))
        return SIMD4(x / Float(width - 1), y / Float(height - 1), 0.5, 1)
    }

    /// A grey ramp from the top (0) to the bottom row (1).
    static func verticalRamp() -> TransitionPicture {
        let picture = TransitionPicture(width: KernelFixture.width, height: KernelFixture.height)
        for y in 0..<picture.height {
            for x in 0..<picture.width { picture[x, y] = SIMD4(SIMD3(repeating: Float(y) / Float(picture.height - 1)), 1) }
        }
        return picture
    }

    static func verticalRampValue(_ v: Float) -> Float {
        let y = min(max((1 - v) * Float(KernelFixture.height) - 0.5, 0), Float(KernelFixture.height - 1))
        return y / Float(KernelFixture.height - 1)
    }

    /// Renders `name` with `values` at each progress and compares every pixel whose
    /// `expected` is not nil (nil: right on an edge, not checked) with it, within `tolerance`,
    /// after the renderer's clamp. Returns how many pixels were checked.
    @discardableResult
    static func frames(_ name: String, _ values: [String: TransitionValue] = [:], from: TransitionPicture, to: TransitionPicture,
                       at progresses: [Double] = [0.25, 0.5, 0.75], tolerance: Float = 0,
                       sourceLocation: SourceLocation = #_sourceLocation,
                       _ expected: (_ uv: SIMD2<Float>, _ p: Float) -> SIMD4<Float>?) throws -> Int {
        let kernel = try #require(TransitionCatalogue.kernel(name, values), sourceLocation: sourceLocation)
        var checked = 0
        for progress in progresses {
            let out = KernelFixture.render(kernel, progress, from, to)
            var failures = 0, first = "", checkedHere = 0
            for (x, y) in KernelFixture.samplePoints(out) {
                let uv = KernelFixture.uv(x, y, out)
                guard var e = expected(uv, Float(progress)) else { continue }
                checked += 1
                checkedHere += 1
                let a = min(max(e.w, 0), 1)
                e = SIMD4(min(max(e.x, 0), a), min(max(e.y, 0), a), min(max(e.z, 0), a), a)
                let d = out[x, y] - e
                if max(abs(d.x), abs(d.y), abs(d.z), abs(d.w)) > tolerance {
                    if failures == 0 { first = "pixel (\(x), \(y)) is \(out[x, y]), expected \(e)" }
                    failures += 1
                }
            }
            #expect(checkedHere * 2 >= out.width * out.height, "\(name) at \(progress): only \(checkedHere) pixels checked", sourceLocation: sourceLocation)
            #expect(failures == 0, "\(name) at \(progress): \(failures) pixels differ, first \(first)", sourceLocation: sourceLocation)
        }
        return checked
    }

    /// The pixel's u and v to the last bit as TransitionRenderer computes them ((x + ½)·(1/w),
    /// 1 − (y + ½)·(1/h)), for the kernels whose random numbers depend on every bit.
    static func rendererU(_ uv: SIMD2<Float>) -> Float {
        let x = Float(Int(uv.x * Float(KernelFixture.width)))
        return (x + 0.5) * (1 / Float(KernelFixture.width))
    }

    static func rendererV(_ uv: SIMD2<Float>) -> Float {
        let y = Float(Int((1 - uv.y) * Float(KernelFixture.height)))
        return 1 - (y + 0.5) * (1 / Float(KernelFixture.height))
    }

    /// GLSL smoothstep, written out (either edge order).
    static func smooth(_ e0: Float, _ e1: Float, _ x: Float) -> Float {
        let t = min(max((x - e0) / (e1 - e0), 0), 1)
        return t * t * (3 - 2 * t)
    }
}
