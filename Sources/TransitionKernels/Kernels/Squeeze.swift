/// gl-transitions' `squeeze`: the outgoing picture is squeezed vertically towards the middle
/// line (to 1 − p of its height), uncovering the incoming one above and below, its red read
/// `color_separation`·p lower and its blue as much higher (a colour fringe).
struct Squeeze: TransitionKernel {
    static let declaration = TransitionDeclaration(
        name: "squeeze", glName: "squeeze",
        summary: "The outgoing clip is squeezed to a horizontal line with colour fringes, uncovering the incoming clip.",
        parameters: [TransitionParameter("color_separation", .number(0.04), range: 0...1, "how far apart red and blue are read at the end, in fractions of the frame")])

    let separation: Float

    init(_ values: TransitionValues) { separation = values.number("color_separation") }

    func color(at uv: SIMD2<Float>, progress: Float, ratio: Float, from: TransitionPicture, to: TransitionPicture) -> SIMD4<Float> {
        guard progress < 1 else { return to.color(uv) }
        let y = 0.5 + (uv.y - 0.5) / (1 - progress)
        if y < 0 || y > 1 { return to.color(uv) }
        let point = SIMD2(uv.x, y), offset = SIMD2(0, progress * separation)
        let c = from.color(point)
        return SIMD4(from.color(point - offset).x, c.y, from.color(point + offset).z, c.w)
    }
}
