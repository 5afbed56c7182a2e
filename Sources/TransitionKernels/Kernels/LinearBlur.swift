/// gl-transitions' `LinearBlur`: a cross-fade through a box blur: each picture is the mean of
/// 6×6 samples on a grid from −½·d to +⅓·d around the point (d = `intensity`·(½ − |p − ½|), so
/// the blur is widest in the middle and the grid is not centred, as in the original).
struct LinearBlur: TransitionKernel {
    static let declaration = TransitionDeclaration(
        name: "linear-blur", glName: "LinearBlur",
        summary: "A cross-fade that blurs both clips, most in the middle.",
        parameters: [TransitionParameter("intensity", .number(0.1), range: 0...1, "the blur's width at the middle, in fractions of the frame, times 2")])

    let intensity: Float

    init(_ values: TransitionValues) { intensity = values.number("intensity") }

    func color(at uv: SIMD2<Float>, progress: Float, ratio: Float, from: TransitionPicture, to: TransitionPicture) -> SIMD4<Float> {
        let spread = intensity * (0.5 - abs(0.5 - progress))
        var a = SIMD4<Float>(), b = SIMD4<Float>()
        for i in 0..<6 {
            let dx = (Float(i) / 6 - 0.5) * spread
            for j in 0..<6 {
                let point = uv + SIMD2(dx, (Float(j) / 6 - 0.5) * spread)
                a += from.color(point)
                b += to.color(point)
            }
        }
        return mix(a, b, progress) / 36
    }
}
