/// gl-transitions' `CrossZoom`: a zoom blur towards a centre that drifts from x = ¼ to ¾ along
/// the middle line, strongest halfway (strength·sin²(π·progress)), while the pictures
/// cross-fade on an exponential ease-in-out (so the switch happens quickly around the middle).
/// The blur averages 41 reads along the line from the pixel towards the centre, weighted by a
/// parabola 4t(1 − t), their positions jittered by a pseudo-random fraction of a step per pixel
/// to hide the banding.
struct CrossZoom: TransitionKernel {
    static let declaration = TransitionDeclaration(
        name: "cross-zoom", glName: "CrossZoom",
        summary: "The outgoing clip blurs into a fast zoom and the incoming one comes out of it.",
        parameters: [TransitionParameter("strength", .number(0.4), range: 0...1, "how far the zoom blur reaches at its strongest, as a fraction of the way to the centre")])

    let strength: Float

    init(_ values: TransitionValues) { strength = values.number("strength") }

    /// Exponential ease-in-out of 0…1: 2^(10(2t − 1))/2 below ½, 1 − 2^(−10(2t − 1))/2 above.
    @inline(__always) static func dissolve(_ t: Float) -> Float {
        if t == 0 { return 0 }
        if t == 1 { return 1 }
        let u = 2 * t - 1
        return u < 0 ? 0.5 * pow(2, 10 * u) : 0.5 * (2 - pow(2, -10 * u))
    }

    func color(at uv: SIMD2<Float>, progress: Float, ratio: Float, from: TransitionPicture, to: TransitionPicture) -> SIMD4<Float> {
        let center = SIMD2<Float>(0.25 + 0.5 * progress, 0.5)
        let dissolve = Self.dissolve(progress)
        // Sinusoidal ease-in-out over half the transition, so it returns to 0 at the end.
        let blur = -strength / 2 * (cos(Float.pi * progress / 0.5) - 1)
        let toward = (center - uv) * blur
        let jitter = random(uv)
        var fromSum = SIMD4<Float>.zero, toSum = SIMD4<Float>.zero, total: Float = 0
        // The cross-fade is linear, so the two pictures are summed apart and mixed once.
        let needFrom = dissolve < 1, needTo = dissolve > 0
        for i in 0...40 {
            let t = (Float(i) + jitter) / 40
            let weight = 4 * (t - t * t)
            let at = uv + toward * t
            if needFrom { fromSum += from.color(at) * weight }
            if needTo { toSum += to.color(at) * weight }
            total += weight
        }
        return mix(fromSum, toSum, dissolve) / total
    }
}
