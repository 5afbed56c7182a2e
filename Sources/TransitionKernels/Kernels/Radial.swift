/// gl-transitions' `Radial`: a clock-hand wipe about the centre. The hand starts pointing left
/// and turns counter-clockwise (down, right, up): its angle (progress − ½)·2.5π runs from
/// −1.25π to +1.25π, a little beyond the polar angles' −π…π so the soft band (`smoothness`
/// radians ahead of the hand) starts and ends off the frame. Pixels the hand has passed show
/// the incoming picture. The angle is taken in uv, not corrected for the frame's shape.
struct Radial: TransitionKernel {
    static let declaration = TransitionDeclaration(
        name: "radial", glName: "Radial",
        summary: "A soft radial wipe turns about the centre like a clock hand and sweeps the incoming clip in.",
        parameters: [TransitionParameter("smoothness", .number(1), range: 0...10, "the width of the soft edge behind the hand, in radians")])

    let smoothness: Float

    init(_ values: TransitionValues) { smoothness = values.number("smoothness") }

    func color(at uv: SIMD2<Float>, progress: Float, ratio: Float, from: TransitionPicture, to: TransitionPicture) -> SIMD4<Float> {
        let p = uv * 2 - 1
        let boundary = (progress - 0.5) * (Float.pi * 2.5)
        return mix(to.color(uv), from.color(uv), smoothstep(0, smoothness, atan(p.y, p.x) - boundary))
    }
}
