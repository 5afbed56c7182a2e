/// gl-transitions' `angular`: a hard-edged sweep about the centre, like a clock hand turning
/// counter-clockwise from `starting_angle` (degrees clockwise from the left). A pixel's angle (taken in uv, from the centre) is
/// turned by the starting angle and measured as a fraction of a full turn; it shows the incoming
/// picture once the progress reaches that fraction.
struct Angular: TransitionKernel {
    static let declaration = TransitionDeclaration(
        name: "angular", glName: "angular",
        summary: "A hard edge sweeps round the centre like a clock hand and uncovers the incoming clip.",
        parameters: [TransitionParameter("starting_angle", .number(90), "where the sweep starts, in degrees clockwise from pointing left: 90 starts it at the top")])

    let offset: Float

    init(_ values: TransitionValues) { offset = values.number("starting_angle") * Float.pi / 180 }

    func color(at uv: SIMD2<Float>, progress: Float, ratio: Float, from: TransitionPicture, to: TransitionPicture) -> SIMD4<Float> {
        let angle = atan(uv.y - 0.5, uv.x - 0.5) + offset
        let turn = fract((angle + Float.pi) / (2 * Float.pi))
        return turn <= progress ? to.color(uv) : from.color(uv)
    }
}
