/// gl-transitions' `SimpleZoom`: the outgoing picture zooms into its centre (the visible part
/// shrinking to nothing by progress `zoom_quickness`, on a smoothstep), and the incoming picture
/// fades in over it from progress `zoom_quickness` − 0.2 to the end.
struct SimpleZoom: TransitionKernel {
    static let declaration = TransitionDeclaration(
        name: "simple-zoom", glName: "SimpleZoom",
        summary: "The outgoing clip zooms into its centre while the incoming one fades in.",
        parameters: [TransitionParameter("zoom_quickness", .number(0.8), range: 0.2...1, "the progress by which the zoom is complete (clamped to 0.2…1)")])

    let quickness: Float

    init(_ values: TransitionValues) { quickness = clamp(values.number("zoom_quickness"), 0.2, 1) }

    func color(at uv: SIMD2<Float>, progress: Float, ratio: Float, from: TransitionPicture, to: TransitionPicture) -> SIMD4<Float> {
        let zoomed = 0.5 + (uv - 0.5) * (1 - smoothstep(0, quickness, progress))
        return mix(from.color(zoomed), to.color(uv), smoothstep(quickness - 0.2, 1, progress))
    }
}
