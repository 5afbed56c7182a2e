/// gl-transitions' `ButterflyWaveScrawler`: both pictures are rippled by a "butterfly curve"
/// of the point's horizontal position (`waves` ripples across), the outgoing one more and more,
/// the incoming one less and less, as they cross-fade; the outgoing picture's red and blue
/// are rippled `color_separation` less and more than its green. Opaque outgoing colours.
///
/// The ripple, added to both coordinates: with θ = `waves`·acos(u·sin(`amplitude`·p) − ½) and
/// s = sin((2θ − π)/24), it is (e^cos θ − 2 cos 4θ + s⁵)/10.
struct ButterflyWaveScrawler: TransitionKernel {
    static let declaration = TransitionDeclaration(
        name: "butterfly-wave-scrawler", glName: "ButterflyWaveScrawler",
        summary: "Both clips ripple in vertical waves with colour fringes while they cross-fade.",
        parameters: [TransitionParameter("amplitude", .number(1), "how fast the ripples drift with the progress"),
                     TransitionParameter("waves", .number(30), "how many ripples there are across the frame"),
                     TransitionParameter("color_separation", .number(0.3), range: 0...10, "how much more and less the red and blue ripple than the green")])

    let amplitude: Float, waves: Float, separation: Float

    init(_ values: TransitionValues) {
        amplitude = values.number("amplitude")
        waves = values.number("waves")
        separation = values.number("color_separation")
    }

    func color(at uv: SIMD2<Float>, progress: Float, ratio: Float, from: TransitionPicture, to: TransitionPicture) -> SIMD4<Float> {
        if progress <= 0 { return from.color(uv) }
        if progress >= 1 { return to.color(uv) }
        let theta = acos(uv.x * sin(progress * amplitude) - 0.5) * waves
        let s = sin((2 * theta - Float.pi) / 24), s2 = s * s
        let ripple = (exp(cos(theta)) - 2 * cos(4 * theta) + s2 * s2 * s) / 10
        let rest = 1 - progress
        let incoming = to.color(uv + rest * ripple)
        let shift = progress * ripple
        let outgoing = SIMD4(from.color(uv + shift * (1 - separation)).x, from.color(uv + shift).y,
                             from.color(uv + shift * (1 + separation)).z, 1)
        return incoming * progress + outgoing * rest
    }
}
