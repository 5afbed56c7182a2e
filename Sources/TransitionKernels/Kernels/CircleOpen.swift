/// gl-transitions' `circleopen`: a soft-edged circle about the centre grows to uncover the
/// incoming picture (or, not opening, the outgoing picture shrinks into a closing circle). The
/// distance is scaled by √2 so the circle reaches the corners at the end; it is measured in uv,
/// so on a wide frame the circle is an ellipse, as in the original.
struct CircleOpen: TransitionKernel {
    static let declaration = TransitionDeclaration(
        name: "circle-open", glName: "circleopen",
        summary: "A soft-edged circle opens from the centre on the incoming clip, or closes on the outgoing one.",
        parameters: [TransitionParameter("smoothness", .number(0.3), range: 0...10, "the width of the circle's soft edge"),
                     TransitionParameter("opening", .boolean(true), "whether the circle opens on the incoming clip (true) or the outgoing clip closes into it (false)")])

    let smoothness: Float, opening: Bool

    init(_ values: TransitionValues) {
        smoothness = values.number("smoothness")
        opening = values.boolean("opening")
    }

    func color(at uv: SIMD2<Float>, progress: Float, ratio: Float, from: TransitionPicture, to: TransitionPicture) -> SIMD4<Float> {
        let radius = (opening ? progress : 1 - progress) * (1 + smoothness)
        let outside = smoothstep(-smoothness, 0, Float(2).squareRoot() * distance(uv, SIMD2(0.5, 0.5)) - radius)
        return mix(from.color(uv), to.color(uv), opening ? 1 - outside : outside)
    }
}
