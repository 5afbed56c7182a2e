/// gl-transitions' `crosswarp`: a soft wipe from left to right in which the outgoing picture
/// shrinks towards the frame's centre and the incoming one grows from it: at a point the
/// change is x = smoothstep(0, 1, 2p + u − 1), the outgoing picture scaled by 1 − x about the
/// centre and the incoming by x, mixed by x.
struct CrossWarp: TransitionKernel {
    static let declaration = TransitionDeclaration(
        name: "cross-warp", glName: "crosswarp",
        summary: "A soft left-to-right wipe in which the outgoing clip shrinks away and the incoming one grows in.")

    init(_ values: TransitionValues) {}

    func color(at uv: SIMD2<Float>, progress: Float, ratio: Float, from: TransitionPicture, to: TransitionPicture) -> SIMD4<Float> {
        let x = smoothstep(0, 1, progress * 2 + uv.x - 1)
        let d = uv - 0.5
        return mix(from.color(d * (1 - x) + 0.5), to.color(d * x + 0.5), x)
    }
}
