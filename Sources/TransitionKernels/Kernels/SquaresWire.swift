/// gl-transitions' `squareswire`: a grid of `squares` cells, each showing the incoming picture
/// in a square about its middle. The squares' half-size, 1 − pr of a half cell, grows as the
/// soft front of directional-wipe (pr: 1 ahead of it, 0 behind, a band `smoothness` wide) sweeps
/// the frame in `direction`.
struct SquaresWire: TransitionKernel {
    static let declaration = TransitionDeclaration(
        name: "squares-wire", glName: "squareswire",
        summary: "A grid of squares of the incoming clip grows in a wave that crosses the frame in a given direction.",
        parameters: [TransitionParameter("squares", .vector([10, 10]), "the number of squares across and up the frame (whole numbers)"),
                     TransitionParameter("direction", .vector([1, -0.5]), "the way the wave travels, in uv units (x right, y up); not (0, 0)"),
                     TransitionParameter("smoothness", .number(1.6), range: 0...10, "the length of the wave: how many squares grow at once")])

    let squares: SIMD2<Float>, front: WipeFront

    init(_ values: TransitionValues) {
        squares = gridSize(values.vector("squares"))
        front = WipeFront(direction: values.vector("direction"), smoothness: values.number("smoothness"))
    }

    func color(at uv: SIMD2<Float>, progress: Float, ratio: Float, from: TransitionPicture, to: TransitionPicture) -> SIMD4<Float> {
        guard progress > 0 else { return from.color(uv) }
        let half = front.behind(uv, progress) / 2
        let q = fract(uv * squares)
        let inSquare = q.x >= half && q.y >= half && q.x <= 1 - half && q.y <= 1 - half
        return inSquare ? to.color(uv) : from.color(uv)
    }
}
