/// gl-transitions' `crosshatch`: the incoming picture appears in a disc growing from `center`
/// broken into random horizontal and vertical streaks: a point switches when p − min(random(row),
/// random(column)) reaches its distance to `center` over `threshold`; the whole is faded in
/// over the first `fade_edge` of the progress and completed over the last `fade_edge`.
struct Crosshatch: TransitionKernel {
    static let declaration = TransitionDeclaration(
        name: "crosshatch", glName: "crosshatch",
        summary: "The incoming clip appears in random horizontal and vertical streaks spreading from a point.",
        parameters: [TransitionParameter("center", .vector([0.5, 0.5]), "where the streaks spread from, in fractions of the frame from its bottom-left corner"),
                     TransitionParameter("threshold", .number(3), range: 0.001...1000, "divides the distance from the centre: the larger, the less the streaks wait for the distance"),
                     TransitionParameter("fade_edge", .number(0.1), range: 0.001...1, "the part of the progress over which the streaks fade in at the start and fill in at the end")])

    let center: SIMD2<Float>, inverseThreshold: Float, fadeEdge: Float

    init(_ values: TransitionValues) {
        center = values.vector("center")
        inverseThreshold = 1 / values.number("threshold")
        fadeEdge = values.number("fade_edge")
    }

    func color(at uv: SIMD2<Float>, progress: Float, ratio: Float, from: TransitionPicture, to: TransitionPicture) -> SIMD4<Float> {
        let dist = distance(center, uv) * inverseThreshold
        let r = progress - min(random(SIMD2(uv.y, 0)), random(SIMD2(0, uv.x)))
        let streak = r < dist ? Float(0) : 1
        let m = mix(streak, 1, smoothstep(1 - fadeEdge, 1, progress)) * smoothstep(0, fadeEdge, progress)
        return mix(from.color(uv), to.color(uv), m)
    }
}
