/// gl-transitions' `kaleidoscope`: a kaleidoscopic fold of the cross-faded pictures swells in
/// towards the middle and recedes again. The fold: seven times, the point (from the frame's
/// centre) is turned and mirrored, (x, y) → (sin t·x + cos t·y, sin t·y − cos t·x), then
/// each coordinate folded into 0…1 by |mod(·, 2) − 1|, with t = p^`power`·`speed` the first
/// time and `angle` more each time after. The folded picture's weight is 1 − 2|p − ½|.
struct Kaleidoscope: FrameKernel {
    static let declaration = TransitionDeclaration(
        name: "kaleidoscope", glName: "kaleidoscope",
        summary: "A kaleidoscope of the two clips blooms over the cross-fade and fades out on the incoming clip.",
        parameters: [TransitionParameter("speed", .number(1), "how fast the mirrors turn with the progress"),
                     TransitionParameter("angle", .number(1), "the turn, in radians, added at each of the seven reflections"),
                     TransitionParameter("power", .number(1.5), range: 0...100, "the exponent of the progress that turns the mirrors (an ease)")])

    let speed: Float, power: Float
    /// cos and sin of k·angle for k = 0…6 (turns are added by the angle-sum formulas).
    let turns: (SIMD8<Float>, SIMD8<Float>)

    init(_ values: TransitionValues) {
        speed = values.number("speed")
        power = values.number("power")
        let angle = values.number("angle")
        var c = SIMD8<Float>(), s = SIMD8<Float>()
        for k in 0..<7 { c[k] = cos(Float(k) * angle); s[k] = sin(Float(k) * angle) }
        turns = (c, s)
    }

    /// The seven turns' sines and cosines at this progress.
    struct Frame { let s: SIMD8<Float>, c: SIMD8<Float>, progress: Float }

    func frame(progress: Float, ratio: Float, width: Int) -> Frame {
        let t = pow(progress, power) * speed
        let s0 = sin(t), c0 = cos(t)
        var s = SIMD8<Float>(), c = SIMD8<Float>()
        for k in 0..<7 {
            s[k] = s0 * turns.0[k] + c0 * turns.1[k]
            c[k] = c0 * turns.0[k] - s0 * turns.1[k]
        }
        return Frame(s: s, c: c, progress: progress)
    }

    func color(at uv: SIMD2<Float>, column: Int, _ f: Frame, from: TransitionPicture, to: TransitionPicture) -> SIMD4<Float> {
        var p = uv - 0.5
        for k in 0..<7 {
            let s = f.s[k], c = f.c[k]
            p = SIMD2(s * p.x + c * p.y, s * p.y - c * p.x)
            p = abs(mod(p, 2) - 1)
        }
        let progress = f.progress
        let plain = mix(from.color(uv), to.color(uv), progress)
        let folded = mix(from.color(p), to.color(p), progress)
        return mix(plain, folded, 1 - 2 * abs(progress - 0.5))
    }
}
