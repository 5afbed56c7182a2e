/// gl-transitions' `burn`: a cross-fade through an over-exposure: `color`·p is added to the
/// outgoing picture and `color`·(1 − p) to the incoming one before they are mixed, so the
/// middle of the fade is brightened by `color` (channels saturating at 1), opaque.
struct Burn: TransitionKernel {
    static let declaration = TransitionDeclaration(
        name: "burn", glName: "burn",
        summary: "A cross-fade that flares up in a colour in the middle, as if the film burned.",
        parameters: [TransitionParameter("color", .color([0.9, 0.4, 0.2, 1]), "the colour added to the pictures at the middle")])

    let flare: SIMD3<Float>

    init(_ values: TransitionValues) { flare = rgb(values.color("color")) }

    func color(at uv: SIMD2<Float>, progress: Float, ratio: Float, from: TransitionPicture, to: TransitionPicture) -> SIMD4<Float> {
        let a = rgb(from.color(uv)) + flare * progress, b = rgb(to.color(uv)) + flare * (1 - progress)
        // The original adds 1 to both alphas too: the result is opaque.
        return opaque(pointwiseMin(mix(a, b, progress), SIMD3(repeating: 1)))
    }
}
