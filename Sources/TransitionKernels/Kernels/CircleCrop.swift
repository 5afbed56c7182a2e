/// gl-transitions' `CircleCrop`: the outgoing picture is cropped to a round hole that shrinks
/// into the centre over a plain background, then the incoming picture appears in a hole that
/// grows out again. The radius is (2·|progress − ½|)³ of the frame's width (the hole is a true
/// circle: y is scaled by 1/ratio), so the crop eases in and out.
struct CircleCrop: TransitionKernel {
    static let declaration = TransitionDeclaration(
        name: "circle-crop", glName: "CircleCrop",
        summary: "The outgoing clip shrinks into a round hole over a plain colour, and the incoming one grows out of it.",
        parameters: [TransitionParameter("bgcolor", .color([0, 0, 0, 1]), "the colour around the hole")])

    let background: SIMD4<Float>

    init(_ values: TransitionValues) { background = values.color("bgcolor") }

    func color(at uv: SIMD2<Float>, progress: Float, ratio: Float, from: TransitionPicture, to: TransitionPicture) -> SIMD4<Float> {
        let e = 2 * abs(progress - 0.5)
        let radius = e * e * e
        let c = uv - 0.5
        guard length(SIMD2(c.x, c.y / ratio)) < radius else { return background }
        return progress < 0.5 ? from.color(uv) : to.color(uv)
    }
}
