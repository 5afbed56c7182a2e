/// gl-transitions' `heart`: a heart grows from a point a little below the centre and shows the
/// incoming picture inside it. The heart is the classic sextic curve
/// (x² + y² − 0.3)³ ≤ x²·y³ in coordinates centred on (0.5, 0.4) and scaled by 1.6·progress
/// (in uv, so it is stretched on a wide frame, as in the original).
struct Heart: TransitionKernel {
    static let declaration = TransitionDeclaration(
        name: "heart", glName: "heart",
        summary: "A heart grows from the middle of the frame and the incoming clip shows inside it.")

    init(_ values: TransitionValues) {}

    func color(at uv: SIMD2<Float>, progress: Float, ratio: Float, from: TransitionPicture, to: TransitionPicture) -> SIMD4<Float> {
        guard progress != 0 else { return from.color(uv) }
        let o = (uv - SIMD2(0.5, 0.4)) / (1.6 * progress)
        let x2 = o.x * o.x, y2 = o.y * o.y
        let a = x2 + y2 - 0.3
        return a * a * a <= x2 * y2 * o.y ? to.color(uv) : from.color(uv)
    }
}
