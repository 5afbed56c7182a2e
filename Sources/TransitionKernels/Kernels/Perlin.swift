/// gl-transitions' `perlin`: the incoming picture appears in blotches of value noise (random
/// values on a `scale`×`scale` grid over the frame, smoothly interpolated): a point switches
/// when the noise falls below the progress, over a soft edge of ±`smoothness`.
struct Perlin: TransitionKernel {
    static let declaration = TransitionDeclaration(
        name: "perlin", glName: "perlin",
        summary: "The incoming clip appears in soft-edged blotches of noise.",
        parameters: [TransitionParameter("scale", .number(4), range: 0...1000, "how many noise cells span the frame"),
                     TransitionParameter("smoothness", .number(0.01), range: 0...1, "the softness of the blotches' edges"),
                     TransitionParameter("seed", .number(12.9898), "picks the noise")])

    let scale: Float, smoothness: Float, seed: Float

    init(_ values: TransitionValues) {
        scale = values.number("scale")
        smoothness = values.number("smoothness")
        seed = values.number("seed")
    }

    /// The random values at the corners of the noise's cell `i` (whole numbers).
    @inline(__always) func corners(_ i: SIMD2<Float>) -> SIMD4<Float> {
        SIMD4(reducedRandom(i, a: seed), reducedRandom(i + SIMD2(1, 0), a: seed),
              reducedRandom(i + SIMD2(0, 1), a: seed), reducedRandom(i + SIMD2(1, 1), a: seed))
    }

    /// Value noise: random values at the integer points, blended with a cubic (3t² − 2t³) fade;
    /// `corners` are those of the point's cell, floor(point).
    @inline(__always) static func noise(_ point: SIMD2<Float>, _ i: SIMD2<Float>, _ corners: SIMD4<Float>) -> Float {
        let f = point - i
        let a = corners.x, b = corners.y, c = corners.z, d = corners.w
        let u = f * f * (3 - 2 * f)
        return mix(a, b, u.x) + (c - a) * u.y * (1 - u.x) + (d - b) * u.x * u.y
    }

    @inline(__always) func mixed(_ uv: SIMD2<Float>, _ n: Float, progress: Float, from: TransitionPicture, to: TransitionPicture) -> SIMD4<Float> {
        let edge = mix(-smoothness, 1 + smoothness, progress)
        return mix(from.color(uv), to.color(uv), 1 - smoothstep(edge - smoothness, edge + smoothness, n))
    }

    func color(at uv: SIMD2<Float>, progress: Float, ratio: Float, from: TransitionPicture, to: TransitionPicture) -> SIMD4<Float> {
        let point = uv * scale, i = floor(point)
        return mixed(uv, Self.noise(point, i, corners(i)), progress: progress, from: from, to: to)
    }

    /// Neighbouring pixels mostly share their noise cell: its corners' random values are
    /// worked out again only when the cell changes along the row (the same values).
    func renderRows(progress: Float, from: TransitionPicture, to: TransitionPicture, into output: TransitionPicture, rows: Range<Int>) {
        let width = output.width, height = output.height
        let du = 1 / Float(width), dv = 1 / Float(height)
        for y in rows {
            let v = 1 - (Float(y) + 0.5) * dv
            let row = output.pixels + y * width
            var cell = SIMD2<Float>(.nan, .nan), values = SIMD4<Float>()
            for x in 0..<width {
                let uv = SIMD2((Float(x) + 0.5) * du, v)
                let point = uv * scale, i = floor(point)
                if i != cell {
                    cell = i
                    values = corners(i)
                }
                row[x] = TransitionRenderer.stored(mixed(uv, Self.noise(point, i, values), progress: progress, from: from, to: to))
            }
        }
    }
}
