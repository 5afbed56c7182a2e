/// gl-transitions' `PolkaDotsCurtain`: the frame is a grid of `dots` × `dots` cells (in uv, so
/// the cells are as wide as the frame's shape makes them), and in each a dot of the incoming
/// picture grows from the cell's middle. A dot's radius is progress / (distance from `center`),
/// so the dots near the centre open first and the curtain spreads outward.
struct PolkaDotsCurtain: TransitionKernel {
    static let declaration = TransitionDeclaration(
        name: "polka-dots-curtain", glName: "PolkaDotsCurtain",
        summary: "A grid of polka dots of the incoming clip grows, starting near a chosen point, until it covers the frame.",
        parameters: [TransitionParameter("dots", .number(20), range: 0.001...1000, "how many dots across (and up) the frame"),
                     TransitionParameter("center", .vector([0, 0]), "where the dots grow first, in fractions of the frame from its bottom-left corner")])

    let dots: Float, center: SIMD2<Float>

    init(_ values: TransitionValues) {
        dots = values.number("dots")
        center = values.vector("center")
    }

    func color(at uv: SIMD2<Float>, progress: Float, ratio: Float, from: TransitionPicture, to: TransitionPicture) -> SIMD4<Float> {
        let inDot = distance(fract(uv * dots), SIMD2(0.5, 0.5)) < progress / distance(uv, center)
        return inDot ? to.color(uv) : from.color(uv)
    }
}
