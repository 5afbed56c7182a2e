/// gl-transitions' `WaterDrop`: a cross-fade with a drop falling into the middle: within a
/// circle of radius progress (in uv) about the centre, the outgoing picture is read displaced
/// along the radius by sin(amplitude·r − speed·progress) times the radius vector, giving rings
/// that travel outwards as the circle grows.
struct WaterDrop: TransitionKernel {
    static let declaration = TransitionDeclaration(
        name: "water-drop", glName: "WaterDrop",
        summary: "A cross-fade in which rings spread from a drop falling into the middle of the outgoing clip.",
        parameters: [TransitionParameter("amplitude", .number(30), "the rings' spatial frequency: how close together they are"),
                     TransitionParameter("speed", .number(30), "how fast the rings travel")])

    let amplitude: Float, speed: Float

    init(_ values: TransitionValues) {
        amplitude = values.number("amplitude")
        speed = values.number("speed")
    }

    func color(at uv: SIMD2<Float>, progress: Float, ratio: Float, from: TransitionPicture, to: TransitionPicture) -> SIMD4<Float> {
        let radial = uv - 0.5
        let r = length(radial)
        guard r <= progress else { return mix(from.color(uv), to.color(uv), progress) }
        let offset = radial * sin(r * amplitude - progress * speed)
        return mix(from.color(uv + offset), to.color(uv), progress)
    }
}
