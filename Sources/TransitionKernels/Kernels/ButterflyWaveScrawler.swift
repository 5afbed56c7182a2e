/// gl-transitions' `ButterflyWaveScrawler`: both pictures are rippled by a "butterfly curve"
/// of the point's horizontal position (`waves` ripples across), the outgoing one more and more,
/// the incoming one less and less, as they cross-fade; the outgoing picture's red and blue
/// are rippled `color_separation` less and more than its green. Opaque outgoing colours.
///
/// The ripple, added to both coordinates: with θ = `waves`·acos(u·sin(`amplitude`·p) − ½) and
/// s = sin((2θ − π)/24), it is (e^cos θ − 2 cos 4θ + s⁵)/10.
struct ButterflyWaveScrawler: FrameKernel {
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

    /// The ripple at u, for sin(`amplitude`·p) = `drift`.
    @inline(__always) func ripple(_ u: Float, drift: Float) -> Float {
        let theta = acos(u * drift - 0.5) * waves
        let s = sin((2 * theta - Float.pi) / 24), s2 = s * s
        return (exp(cos(theta)) - 2 * cos(4 * theta) + s2 * s2 * s) / 10
    }

    @inline(__always) func mixed(_ uv: SIMD2<Float>, ripple: Float, progress: Float, from: TransitionPicture, to: TransitionPicture) -> SIMD4<Float> {
        if progress <= 0 { return from.color(uv) }
        if progress >= 1 { return to.color(uv) }
        let rest = 1 - progress
        let incoming = to.color(uv + rest * ripple)
        let shift = progress * ripple
        let outgoing = SIMD4(from.color(uv + shift * (1 - separation)).x, from.color(uv + shift).y,
                             from.color(uv + shift * (1 + separation)).z, 1)
        return incoming * progress + outgoing * rest
    }

    func color(at uv: SIMD2<Float>, progress: Float, ratio: Float, from: TransitionPicture, to: TransitionPicture) -> SIMD4<Float> {
        mixed(uv, ripple: ripple(uv.x, drift: sin(progress * amplitude)), progress: progress, from: from, to: to)
    }

    /// The ripple depends on u alone: it is worked out once for each column of the frame.
    struct Frame { let ripples: [Float], progress: Float }

    func frame(progress: Float, ratio: Float, width: Int) -> Frame {
        let drift = sin(progress * amplitude), du = 1 / Float(width)
        return Frame(ripples: (0..<width).map { ripple((Float($0) + 0.5) * du, drift: drift) }, progress: progress)
    }

    func color(at uv: SIMD2<Float>, column: Int, _ f: Frame, from: TransitionPicture, to: TransitionPicture) -> SIMD4<Float> {
        mixed(uv, ripple: f.ripples[column], progress: f.progress, from: from, to: to)
    }
}
