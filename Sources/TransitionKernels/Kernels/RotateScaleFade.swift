/// gl-transitions' `rotate_scale_fade`: the cross-fading pictures turn `rotations` times about
/// `center` (counter-clockwise in the frame's uv, which is not square: the turn shears on a
/// wide frame, as in the original) while they shrink to 1/`scale` at the middle and grow
/// back; outside the shrunken picture is `back_color`.
struct RotateScaleFade: TransitionKernel {
    static let declaration = TransitionDeclaration(
        name: "rotate-scale-fade", glName: "rotate_scale_fade",
        summary: "The picture spins and shrinks away while cross-fading, then grows back as the incoming clip.",
        parameters: [TransitionParameter("center", .vector([0.5, 0.5]), "the point turned about, in fractions of the frame from its bottom-left corner"),
                     TransitionParameter("rotations", .number(1), "the number of turns"),
                     TransitionParameter("scale", .number(8), range: 0.001...1000, "how many times smaller the picture is at the middle"),
                     TransitionParameter("back_color", .color([0.15, 0.15, 0.15, 1]), "the colour around the shrunken picture")])

    let center: SIMD2<Float>, turn: Float, scale: Float, backColor: SIMD4<Float>

    init(_ values: TransitionValues) {
        center = values.vector("center")
        turn = 2 * Float.pi * values.number("rotations")
        scale = values.number("scale")
        backColor = values.color("back_color")
    }

    func color(at uv: SIMD2<Float>, progress: Float, ratio: Float, from: TransitionPicture, to: TransitionPicture) -> SIMD4<Float> {
        let angle = turn * progress
        let c = cos(angle), s = sin(angle)
        let zoom = mix(scale, 1, 2 * abs(progress - 0.5))
        let d = uv - center
        let point = center + SIMD2(d.x * c - d.y * s, d.x * s + d.y * c) / zoom
        if point.x < 0 || point.x > 1 || point.y < 0 || point.y > 1 { return backColor }
        return mix(from.color(point), to.color(point), progress)
    }
}
