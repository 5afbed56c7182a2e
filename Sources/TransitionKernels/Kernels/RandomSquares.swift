/// gl-transitions' `randomsquares`: the frame is cut into a `size` grid of cells and each cell
/// fades to the incoming picture at its own pseudo-random moment (its threshold `random(cell)`
/// is passed by progress·(1 + smoothness), with a fade `smoothness` long).
struct RandomSquares: TransitionKernel {
    static let declaration = TransitionDeclaration(
        name: "random-squares", glName: "randomsquares",
        summary: "The frame is cut into a grid of squares that turn to the incoming clip one by one in random order.",
        parameters: [TransitionParameter("size", .vector([10, 10]), "the number of squares across and up the frame (whole numbers)"),
                     TransitionParameter("smoothness", .number(0.5), range: 0...10, "how long each square takes to fade over")])

    let size: SIMD2<Float>, smoothness: Float

    init(_ values: TransitionValues) {
        size = gridSize(values.vector("size"))
        smoothness = values.number("smoothness")
    }

    func color(at uv: SIMD2<Float>, progress: Float, ratio: Float, from: TransitionPicture, to: TransitionPicture) -> SIMD4<Float> {
        let threshold = random(floor(size * uv))
        let m = smoothstep(0, -smoothness, threshold - progress * (1 + smoothness))
        return mix(from.color(uv), to.color(uv), m)
    }
}
