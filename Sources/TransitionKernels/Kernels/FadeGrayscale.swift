/// gl-transitions' `fadegrayscale`: the outgoing picture loses its colour (to its BT.709 luma),
/// the grey pictures cross-fade, and the incoming one regains its colour. The outgoing one is
/// fully grey from p = 1 − `intensity`, the incoming one starts to colour at p = `intensity`.
struct FadeGrayscale: TransitionKernel {
    static let declaration = TransitionDeclaration(
        name: "fade-grayscale", glName: "fadegrayscale",
        summary: "The outgoing clip turns grey, cross-fades to the incoming clip in grey, which then regains its colours.",
        parameters: [TransitionParameter("intensity", .number(0.3), range: 0...1, "how long the pictures stay grey: 0 hardly, towards 1 most of the transition")])

    let intensity: Float

    init(_ values: TransitionValues) { intensity = values.number("intensity") }

    func color(at uv: SIMD2<Float>, progress: Float, ratio: Float, from: TransitionPicture, to: TransitionPicture) -> SIMD4<Float> {
        let a = from.color(uv), b = to.color(uv)
        let outgoing = mix(opaque(SIMD3(repeating: luma(a))), a, smoothstep(1 - intensity, 0, progress))
        let incoming = mix(opaque(SIMD3(repeating: luma(b))), b, smoothstep(intensity, 1, progress))
        return mix(outgoing, incoming, progress)
    }
}
