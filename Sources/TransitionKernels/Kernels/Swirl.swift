/// gl-transitions' `Swirl`: both pictures are twisted about the centre, more the nearer the
/// centre (by (1 − r)²·a·8π radians within radius 1 of it, r in uv units), the twist a growing to
/// 1 at the middle of the transition and unwinding after, while they cross-fade.
struct Swirl: TransitionKernel {
    static let declaration = TransitionDeclaration(
        name: "swirl", glName: "Swirl",
        summary: "The outgoing clip twists into a whirlpool and the incoming one untwists out of it.")

    init(_ values: TransitionValues) {}

    func color(at uv: SIMD2<Float>, progress: Float, ratio: Float, from: TransitionPicture, to: TransitionPicture) -> SIMD4<Float> {
        var q = uv - 0.5
        let r = length(q)
        if r < 1 {
            let nearness = 1 - r
            let twist = progress <= 0.5 ? progress / 0.5 : 1 - (progress - 0.5) / 0.5
            // The original's 3.14159 for π.
            let theta = nearness * nearness * twist * 8 * 3.14159
            let (s, c) = sinCos(theta)
            q = SIMD2(c * q.x - s * q.y, s * q.x + c * q.y)
        }
        let at = q + 0.5
        return mix(from.color(at), to.color(at), progress)
    }
}
