/// gl-transitions' `ZoomInCircles`: the outgoing picture is split into a disc and three rings
/// about the centre (true circles: y is scaled by 1/ratio, radius 1 is half the frame's width),
/// the outer ones zoomed in more (by 1/(1 − 0.15·pro), 1/(1 − 0.2·pro), 1/(1 − 0.25·pro), with
/// pro = progress/0.8) while the circles widen; after progress 0.8 they race outwards and the
/// incoming picture fades in over 0.07 of the transition, fastest in the disc, slowest in the
/// outer rings (there, until its very end, only a fifth or a half of the way: the outermost
/// zone does not fade at all, as in the original).
struct ZoomInCircles: TransitionKernel {
    static let declaration = TransitionDeclaration(
        name: "zoom-in-circles", glName: "ZoomInCircles",
        summary: "The outgoing clip zooms in concentric rings that widen and burst outward, revealing the incoming clip.")

    init(_ values: TransitionValues) {}

    func color(at uv: SIMD2<Float>, progress: Float, ratio: Float, from: TransitionPicture, to: TransitionPicture) -> SIMD4<Float> {
        let r = 2 * length(SIMD2(uv.x - 0.5, (uv.y - 0.5) / ratio))
        let pro = progress / 0.8
        var grow = pro * 0.2, fade: Float = 0
        if pro > 1 {
            grow = 0.2 + (pro - 1) * 5
            fade = clamp((progress - 0.8) / 0.07, 0, 1)
        }
        var at = uv
        if r < 0.5 + grow {
        } else if r < 0.8 + grow * 1.5 {
            at = 0.5 + (uv - 0.5) * (1 - 0.15 * pro)
            fade *= 0.5
        } else if r < 1.2 + grow * 2.5 {
            at = 0.5 + (uv - 0.5) * (1 - 0.2 * pro)
            fade *= 0.2
        } else {
            at = 0.5 + (uv - 0.5) * (1 - 0.25 * pro)
        }
        return mix(from.color(at), to.color(at), fade)
    }
}
