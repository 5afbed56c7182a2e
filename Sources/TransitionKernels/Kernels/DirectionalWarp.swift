/// gl-transitions' `directionalwarp`: the soft front of directional-wipe sweeps the frame while
/// both pictures are scaled about the centre by how far the front has passed: the outgoing one
/// by 1/(1 − m), swelling as it leaves, the incoming one by 1/m, shrinking from a huge close-up
/// to its natural size (m is 1 behind the front, 0 ahead of it).
struct DirectionalWarp: TransitionKernel {
    static let declaration = TransitionDeclaration(
        name: "directional-warp", glName: "directionalwarp",
        summary: "A soft edge sweeps the frame while the outgoing clip swells away and the incoming one settles from a close-up.",
        parameters: [TransitionParameter("smoothness", .number(0.1), range: 0...10, "the width of the soft, warped edge"),
                     TransitionParameter("direction", .vector([-1, 1]), "the way the edge travels, in uv units (x right, y up); not (0, 0)")])

    let front: WipeFront

    init(_ values: TransitionValues) {
        front = WipeFront(direction: values.vector("direction"), smoothness: values.number("smoothness"))
    }

    func color(at uv: SIMD2<Float>, progress: Float, ratio: Float, from: TransitionPicture, to: TransitionPicture) -> SIMD4<Float> {
        let m = 1 - front.behind(uv, progress)
        let c = uv - 0.5
        return mix(from.color(c * (1 - m) + 0.5), to.color(c * m + 0.5), m)
    }
}
