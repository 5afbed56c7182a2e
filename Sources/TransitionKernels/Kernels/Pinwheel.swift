/// gl-transitions' `pinwheel`: eight blades turn about the centre. A pixel's polar angle, taken
/// in uv and advanced by progress·speed, is reduced modulo an eighth of a turn (the original's
/// 3.1415/4, not quite π/4); the pixel shows the incoming picture where the progress exceeds
/// that remainder, so the blades widen until they cover the frame.
struct Pinwheel: TransitionKernel {
    static let declaration = TransitionDeclaration(
        name: "pinwheel", glName: "pinwheel",
        summary: "Eight pinwheel blades turn about the centre and widen until the incoming clip fills the frame.",
        parameters: [TransitionParameter("speed", .number(2), "how fast the blades turn, in radians over the transition")])

    let speed: Float
    /// The original's eighth of a turn.
    static let blade: Float = 3.1415 / 4

    init(_ values: TransitionValues) { speed = values.number("speed") }

    func color(at uv: SIMD2<Float>, progress: Float, ratio: Float, from: TransitionPicture, to: TransitionPicture) -> SIMD4<Float> {
        let angle = atan(uv.y - 0.5, uv.x - 0.5) + progress * speed
        return progress > mod(angle, Self.blade) ? to.color(uv) : from.color(uv)
    }
}
