/// gl-transitions' `pixelize`: the picture breaks into ever larger square blocks (each the
/// colour at its centre) up to the middle, where there are `squares_min` of them across and
/// up, then the blocks shrink again while the colours cross-fade. The block size grows in
/// `steps` jumps to the middle (2·⌈d·steps⌉/steps/squares_min of the frame, d = min(p, 1 − p)).
struct Pixelize: TransitionKernel {
    static let declaration = TransitionDeclaration(
        name: "pixelize", glName: "pixelize",
        summary: "The picture dissolves into growing square blocks, which shrink again on the incoming clip.",
        parameters: [TransitionParameter("squares_min", .vector([20, 20]), "the number of blocks across and up at the middle (the original's ivec2: whole numbers, at least 1)"),
                     TransitionParameter("steps", .integer(50), range: 0...10_000, "how many sizes the blocks jump through to the middle; 0 grows them smoothly")])

    let inverseSquares: SIMD2<Float>, steps: Float

    init(_ values: TransitionValues) {
        let squares = values.vector("squares_min")
        inverseSquares = 1 / SIMD2(max(squares.x.rounded(), 1), max(squares.y.rounded(), 1))
        steps = Float(values.integer("steps"))
    }

    func color(at uv: SIMD2<Float>, progress: Float, ratio: Float, from: TransitionPicture, to: TransitionPicture) -> SIMD4<Float> {
        let d = min(progress, 1 - progress)
        let dist = steps > 0 ? ceil(d * steps) / steps : d
        var point = uv
        if dist > 0 {
            let size = 2 * dist * inverseSquares
            point = (floor(uv / size) + 0.5) * size
        }
        return mix(from.color(point), to.color(point), progress)
    }
}
