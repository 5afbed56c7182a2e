/// gl-transitions' `fadecolor`: the outgoing picture fades to `color`, which holds for a while,
/// then the incoming one fades in from it. The outgoing one is fully `color` from p = 1 −
/// `color_phase` on, the incoming one starts to show at p = `color_phase`; the two are mixed by p.
struct FadeColor: TransitionKernel {
    static let declaration = TransitionDeclaration(
        name: "fade-color", glName: "fadecolor",
        summary: "The outgoing clip fades to a colour, then the incoming clip fades in from it.",
        parameters: [TransitionParameter("color", .color([0, 0, 0, 1]), "the colour faded through"),
                     TransitionParameter("color_phase", .number(0.4), range: 0...1, "how long the colour holds: 0 none, towards 1 most of the transition")])

    let tint: SIMD4<Float>, phase: Float

    init(_ values: TransitionValues) {
        tint = values.color("color")
        phase = values.number("color_phase")
    }

    func color(at uv: SIMD2<Float>, progress: Float, ratio: Float, from: TransitionPicture, to: TransitionPicture) -> SIMD4<Float> {
        let outgoing = mix(tint, from.color(uv), smoothstep(1 - phase, 0, progress))
        let incoming = mix(tint, to.color(uv), smoothstep(phase, 1, progress))
        return mix(outgoing, incoming, progress)
    }
}
