/// gl-transitions' `CrazyParametricFun`: the outgoing picture is torn into rings about the
/// centre, oscillating in and out ever faster, while the incoming one fades in (by
/// smoothstep(0.2, 1, p)). The point reads the outgoing picture offset along its direction d
/// from the centre by (sin(p·|d|·`amplitude`·x), sin(p·|d|·`amplitude`·y))/`smoothness`,
/// where (x, y) is a point of the hypotrochoid with radii `a` and `b` at angle p.
struct CrazyParametricFun: FrameKernel {
    static let declaration = TransitionDeclaration(
        name: "crazy-parametric-fun", glName: "CrazyParametricFun",
        summary: "The outgoing clip breaks into shimmering rings about the centre while the incoming clip fades in.",
        parameters: [TransitionParameter("a", .number(4), "the hypotrochoid's first radius"),
                     TransitionParameter("b", .number(1), "its second radius (not 0)"),
                     TransitionParameter("amplitude", .number(120), "how fast the rings oscillate with the distance from the centre"),
                     TransitionParameter("smoothness", .number(0.1), range: 0.0001...1000, "divides the offsets: the smaller, the wilder")])

    let a: Float, b: Float, amplitude: Float, smoothness: Float

    init(_ values: TransitionValues) {
        a = values.number("a")
        b = values.number("b")
        amplitude = values.number("amplitude")
        smoothness = values.number("smoothness")
    }

    /// The hypotrochoid's point and the fade are the frame's.
    struct Frame { let x: Float, y: Float, progress: Float, fade: Float }

    func frame(progress: Float, ratio: Float, width: Int) -> Frame {
        let k = progress * (a / b - 1)
        return Frame(x: (a - b) * cos(progress) + b * cos(k), y: (a - b) * sin(progress) - b * sin(k),
                     progress: progress, fade: smoothstep(0.2, 1, progress))
    }

    func color(at uv: SIMD2<Float>, column: Int, _ f: Frame, from: TransitionPicture, to: TransitionPicture) -> SIMD4<Float> {
        let d = uv - 0.5, dist = length(d)
        let reach = f.progress * dist * amplitude
        let offset = d * SIMD2(sin(reach * f.x), sin(reach * f.y)) / smoothness
        return mix(from.color(uv + offset), to.color(uv), f.fade)
    }
}
