/// gl-transitions' `morph`: both pictures are displaced by an offset read from their own
/// colours (red and green, each plus blue, mapped from 0…1 to −1…1, averaged between the two
/// pictures), the outgoing one pushed further along it as the progress grows, the incoming
/// one pulled back less and less, while they cross-fade: bright and dark areas seem to flow
/// into each other.
struct Morph: TransitionKernel {
    static let declaration = TransitionDeclaration(
        name: "morph", glName: "morph",
        summary: "The two clips cross-fade while each is smeared along a direction taken from the colours of both, as if one melted into the other.",
        parameters: [TransitionParameter("strength", .number(0.1), "how far the colours push the pictures, in fractions of the frame")])

    let strength: Float

    init(_ values: TransitionValues) { strength = values.number("strength") }

    func color(at uv: SIMD2<Float>, progress: Float, ratio: Float, from: TransitionPicture, to: TransitionPicture) -> SIMD4<Float> {
        let a = from.color(uv), b = to.color(uv)
        // (rg + b) / 2 in 0…1, stretched to −1…1, for each picture; then their mean.
        let shiftA = SIMD2(a.x, a.y) + a.z - 1, shiftB = SIMD2(b.x, b.y) + b.z - 1
        let shift = (shiftA + shiftB) * (0.5 * strength)
        return mix(from.color(uv + shift * progress), to.color(uv - shift * (1 - progress)), progress)
    }
}
