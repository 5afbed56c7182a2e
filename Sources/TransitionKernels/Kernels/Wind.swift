/// gl-transitions' `wind`: a soft front crosses the frame from left to right (right to left
/// when reversed), each row of pixels offset by its own pseudo-random amount (up to `size`), so
/// the incoming picture blows in as ragged horizontal streaks.
struct Wind: TransitionKernel {
    static let declaration = TransitionDeclaration(
        name: "wind", glName: "wind",
        summary: "The incoming clip blows in across the frame in ragged horizontal streaks.",
        parameters: [TransitionParameter("size", .number(0.2), range: 0...1, "how ragged the streaks are, and how soft their ends"),
                     TransitionParameter("reversed", .boolean(false), "whether the wind blows from the right instead of the left")])

    let size: Float, reversed: Bool

    init(_ values: TransitionValues) {
        size = values.number("size")
        reversed = values.boolean("reversed")
    }

    func color(at uv: SIMD2<Float>, progress: Float, ratio: Float, from: TransitionPicture, to: TransitionPicture) -> SIMD4<Float> {
        let x = reversed ? 1 - uv.x : uv.x
        let jitter = random(SIMD2(0, uv.y))
        let m = smoothstep(0, -size, x * (1 - size) + size * jitter - progress * (1 + size))
        return mix(from.color(uv), to.color(uv), m)
    }
}
