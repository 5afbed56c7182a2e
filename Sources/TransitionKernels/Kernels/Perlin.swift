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

    /// Value noise: random values at the integer points, blended with a cubic (3t² − 2t³) fade.
    @inline(__always) func noise(_ point: SIMD2<Float>) -> Float {
        let i = floor(point), f = point - i
        let a = reducedRandom(i, a: seed), b = reducedRandom(i + SIMD2(1, 0), a: seed)
        let c = reducedRandom(i + SIMD2(0, 1), a: seed), d = reducedRandom(i + SIMD2(1, 1), a: seed)
        let u = f * f * (3 - 2 * f)
        return mix(a, b, u.x) + (c - a) * u.y * (1 - u.x) + (d - b) * u.x * u.y
    }

    func color(at uv: SIMD2<Float>, progress: Float, ratio: Float, from: TransitionPicture, to: TransitionPicture) -> SIMD4<Float> {
        let n = noise(uv * scale)
        let edge = mix(-smoothness, 1 + smoothness, progress)
        return mix(from.color(uv), to.color(uv), 1 - smoothstep(edge - smoothness, edge + smoothness, n))
    }
}
