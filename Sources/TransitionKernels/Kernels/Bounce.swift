/// gl-transitions' `Bounce`: the outgoing picture drops out of the frame downwards, bouncing
/// `bounces` times on the bottom edge with a decaying height, and uncovers the incoming
/// picture above it, darkened by a shadow of `shadow_height` just above its top edge (fading
/// out over the last 5 % of the progress).
///
/// Its top edge is at y = |cos(π·bounces·p)|·(1 − sin(π·p/2)); the shadow's weight is a·(1 −
/// d/height) a distance d above it (a the shadow colour's alpha).
struct Bounce: TransitionKernel {
    static let declaration = TransitionDeclaration(
        name: "bounce", glName: "Bounce",
        summary: "The outgoing clip falls down and bounces off the bottom edge, casting a shadow on the incoming clip behind it.",
        parameters: [TransitionParameter("shadow_colour", .color([0, 0, 0, 0.6]), "the shadow's colour and opacity"),
                     TransitionParameter("shadow_height", .number(0.075), range: 0.0001...1, "how far the shadow reaches above the falling picture, in fractions of the frame's height"),
                     TransitionParameter("bounces", .number(3), range: 0...100, "how many times the picture bounces")])

    let shadow: SIMD4<Float>, shadowHeight: Float, bounces: Float

    init(_ values: TransitionValues) {
        shadow = values.color("shadow_colour")
        shadowHeight = values.number("shadow_height")
        bounces = values.number("bounces")
    }

    func color(at uv: SIMD2<Float>, progress: Float, ratio: Float, from: TransitionPicture, to: TransitionPicture) -> SIMD4<Float> {
        let top = abs(cos(progress * Float.pi * bounces)) * (1 - sin(progress * Float.pi / 2))
        let d = uv.y - top
        if d <= 0 { return from.color(SIMD2(uv.x, uv.y + 1 - top)) }
        let incoming = to.color(uv)
        guard d <= shadowHeight else { return incoming }
        let alpha = shadow.w
        let weight = 1 - mix(d / shadowHeight * alpha + (1 - alpha), 1, smoothstep(0.95, 1, progress))
        return mix(incoming, shadow, weight)
    }
}
