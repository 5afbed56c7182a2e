/// gl-transitions' `ripple`: circular waves run out from the centre across the outgoing picture
/// (it is read displaced along the radius by (sin(progress·(amplitude·r − speed)) + ½)/30 ·
/// progress of the radius vector, r the distance from the centre in uv), while the incoming picture fades
/// in from progress 0.2.
struct Ripple: TransitionKernel {
    static let declaration = TransitionDeclaration(
        name: "ripple", glName: "ripple",
        summary: "Circular ripples spread over the outgoing clip while the incoming one fades in.",
        parameters: [TransitionParameter("amplitude", .number(100), "the ripples' spatial frequency: how close together the rings are"),
                     TransitionParameter("speed", .number(50), "how fast the rings travel outwards")])

    let amplitude: Float, speed: Float

    init(_ values: TransitionValues) {
        amplitude = values.number("amplitude")
        speed = values.number("speed")
    }

    func color(at uv: SIMD2<Float>, progress: Float, ratio: Float, from: TransitionPicture, to: TransitionPicture) -> SIMD4<Float> {
        let radial = uv - 0.5
        let r = length(radial)
        let offset = radial * (sin(progress * r * amplitude - progress * speed) + 0.5) / 30 * progress
        return mix(from.color(uv + offset), to.color(uv), smoothstep(0.2, 1, progress))
    }
}
