/// gl-transitions' `DoomScreenTransition`, after Doom's screen melt: the outgoing picture
/// slides down in `bars` vertical bars, each at its own speed, uncovering the incoming picture.
///
/// Bar n slides at 1 + pos(n)·`amplitude` frame heights over the transition, pos(n) = wave(n)
/// (a product of three cosines and sines of n·`frequency`·0.1·bars), mixed with a pseudo-random
/// number by `noise`, plus sin(π·n/(bars − 1))·`drip_scale` (the middle bars faster). The
/// pseudo-random number, fract(mod(67123.313·n, 12)·sin(10.3·n)·cos n), is computed as the
/// original on a GPU does, in Float: its first product rounds to 1/8 for the larger n.
struct DoomScreenTransition: TransitionKernel {
    static let declaration = TransitionDeclaration(
        name: "doom-screen-transition", glName: "DoomScreenTransition",
        summary: "The outgoing clip melts down in vertical bars of different speeds, as in Doom.",
        parameters: [TransitionParameter("bars", .integer(30), range: 2...10_000, "the number of bars"),
                     TransitionParameter("amplitude", .number(2), range: 0...100, "how much faster than the slowest the bars may be"),
                     TransitionParameter("noise", .number(0.1), range: 0...1, "how much the speeds vary at random: 0 none, 1 only at random"),
                     TransitionParameter("frequency", .number(0.5), range: 0...100, "how quickly the speeds vary from bar to bar"),
                     TransitionParameter("drip_scale", .number(0.5), range: 0...10, "how much faster the middle bars run than the sides")])

    /// Each bar's slide over the transition, in frame heights: 1 + pos(n)·amplitude.
    let slides: [Float]
    let bars: Float

    init(_ values: TransitionValues) {
        let count = max(values.integer("bars"), 1)
        let amplitude = values.number("amplitude"), noise = values.number("noise")
        let frequency = values.number("frequency"), drip = values.number("drip_scale")
        bars = Float(count)
        slides = (0..<count).map { n in
            let fn = Float(n) * frequency * 0.1 * Float(count)
            let wave = cos(fn * 0.5) * cos(fn * 0.13) * sin((fn + 10) * 0.3) / 2 + 0.5
            let random = fract(mod(Float(n) * 67123.313, 12) * sin(Float(n) * 10.3) * cos(Float(n)))
            var pos = noise == 0 ? wave : mix(wave, random, noise)
            if drip != 0 { pos += sin(Float(n) / Float(count - 1) * 3.141592) * drip }
            return 1 + pos * amplitude
        }
    }

    func color(at uv: SIMD2<Float>, progress: Float, ratio: Float, from: TransitionPicture, to: TransitionPicture) -> SIMD4<Float> {
        let bar = min(max(Int(uv.x * bars), 0), slides.count - 1)
        let phase = progress * slides[bar]
        return phase + uv.y < 1 ? from.color(SIMD2(uv.x, uv.y + phase)) : to.color(uv)
    }
}
