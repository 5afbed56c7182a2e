/// gl-transitions' `polar_function`: the incoming picture appears inside a flower growing from
/// the frame's centre (in uv, so stretched to the frame's shape), whose radius at the angle θ
/// (from the upward direction) is p·(cos(`segments`·θ) + 4)/4: `segments` petals.
struct PolarFunction: TransitionKernel {
    static let declaration = TransitionDeclaration(
        name: "polar-function", glName: "polar_function",
        summary: "The incoming clip appears in a flower-shaped area growing from the centre.",
        parameters: [TransitionParameter("segments", .integer(5), "the number of petals")])

    let segments: Float

    init(_ values: TransitionValues) { segments = Float(values.integer("segments")) }

    func color(at uv: SIMD2<Float>, progress: Float, ratio: Float, from: TransitionPicture, to: TransitionPicture) -> SIMD4<Float> {
        let d = uv - 0.5
        let angle = atan(d.y, d.x) - 0.5 * Float.pi
        let radius = (cos(segments * angle) + 4) / 4
        return length(d) > radius * progress ? from.color(uv) : to.color(uv)
    }
}
