/// gl-transitions' `windowslice`: the frame is cut into `count` vertical slats; a soft front
/// moving left to right (a band `smoothness` wide, pr = 1 ahead of it, 0 behind) narrows the
/// outgoing picture in each slat to its left part of width pr, so the slats open like a blind
/// turning from left to right.
struct WindowSlice: TransitionKernel {
    static let declaration = TransitionDeclaration(
        name: "window-slice", glName: "windowslice",
        summary: "The incoming clip appears through vertical slats that open one after another from left to right.",
        parameters: [TransitionParameter("count", .number(10), range: 0...1000, "the number of slats across the frame"),
                     TransitionParameter("smoothness", .number(0.5), range: 0...10, "how many of the slats are opening at once, as a fraction of the frame")])

    let count: Float, smoothness: Float

    init(_ values: TransitionValues) {
        count = values.number("count")
        smoothness = values.number("smoothness")
    }

    func color(at uv: SIMD2<Float>, progress: Float, ratio: Float, from: TransitionPicture, to: TransitionPicture) -> SIMD4<Float> {
        let covered = smoothstep(-smoothness, 0, uv.x - progress * (1 + smoothness))
        return fract(count * uv.x) >= covered ? to.color(uv) : from.color(uv)
    }
}
