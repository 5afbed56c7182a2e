/// gl-transitions' `undulatingBurnOut`: the incoming picture appears in a disc growing from
/// `center` whose rim undulates (15 waves around, their height easing from 0.02 to 0.09 of the
/// frame and swinging with sin(p·(40 → 30))), bordered by a burning line: just inside the rim
/// the outgoing picture is pushed away from the incoming one (2·from − to, then saturated),
/// just outside it turns to `color` (75 %).
///
/// The rim radius at angle θ (from the centre, measured from the negative x axis) is p +
/// quadInOut(sin 15θ)·height·sin(p·swing); with d = radius − distance, −0.005 ≤ d < 0.005 is the
/// glow and 0.005 ≤ d ≤ 0.01 the coloured band; elsewhere the pictures mix by
/// smoothstep(−smoothness, 0, radius − distance·(1 + smoothness)).
struct UndulatingBurnOut: FrameKernel {
    static let declaration = TransitionDeclaration(
        name: "undulating-burn-out", glName: "undulatingBurnOut",
        summary: "The incoming clip appears in a growing disc with a wavy, burning rim.",
        parameters: [TransitionParameter("smoothness", .number(0.03), range: 0...1, "the softness of the disc's edge"),
                     TransitionParameter("center", .vector([0.5, 0.5]), "the disc's centre, in fractions of the frame from its bottom-left corner"),
                     TransitionParameter("color", .color([0, 0, 0, 1]), "the colour of the burnt band along the rim")])

    let smoothness: Float, center: SIMD2<Float>, burnt: SIMD4<Float>

    init(_ values: TransitionValues) {
        smoothness = values.number("smoothness")
        center = values.vector("center")
        burnt = values.color("color")
    }

    @inline(__always) static func quadraticInOut(_ t: Float) -> Float {
        let p = 2 * t * t
        return t < 0.5 ? p : -p + 4 * t - 1
    }

    /// The waves' height and sin(p·swing) are the frame's.
    struct Frame { let progress: Float, height: Float, swing: Float }

    func frame(progress: Float, ratio: Float, width: Int) -> Frame {
        let ease = smoothstep(0, 1, progress)
        let height = mix(0.02, 0.09, ease), swing = mix(40, 30, ease)
        return Frame(progress: progress, height: height, swing: sin(progress * swing))
    }

    func color(at uv: SIMD2<Float>, column: Int, _ f: Frame, from: TransitionPicture, to: TransitionPicture) -> SIMD4<Float> {
        let d = uv - center, dist = length(d)
        // 15 waves per turn: the angle in degrees from the negative x axis, times 30π/360.
        let waves = (atan(d.y, d.x) * (180 / Float.pi) + 180) * (Float.pi * 30 / 360)
        let radius = f.progress + Self.quadraticInOut(sin(waves)) * f.height * f.swing
        let gap = radius - dist
        let m: Float
        if gap >= -0.005 && gap <= 0.01 { m = gap < 0.005 ? -1 : -2 }
        else { m = smoothstep(-smoothness, 0, radius - dist * (1 + smoothness)) }
        let a = from.color(uv)
        if m <= -2 { return mix(a, burnt, 0.75) }
        let c = mix(a, to.color(uv), m)
        return SIMD4(clamp(c.x, 0, 1), clamp(c.y, 0, 1), clamp(c.z, 0, 1), clamp(c.w, 0, 1))
    }
}
