/// gl-transitions' `ColourDistance`: pixels where the two pictures are alike switch first: a
/// pixel shows the incoming picture once the distance between its two colours (RGBA, as a
/// 4-vector) is at most the progress; over that, everything fades to the incoming picture by
/// p^`power`.
struct ColourDistance: TransitionKernel {
    static let declaration = TransitionDeclaration(
        name: "colour-distance", glName: "ColourDistance",
        summary: "Pixels switch to the incoming clip in the order of how alike the two clips are there, over a late fade.",
        parameters: [TransitionParameter("power", .number(5), range: 0...100, "the exponent of the progress for the fade beneath: the larger, the later")])

    let power: Float
    /// The power when it is a whole number up to 16 (multiplied out instead of `pow`).
    let wholePower: Int?

    init(_ values: TransitionValues) {
        power = values.number("power")
        wholePower = power == power.rounded() && power >= 0 && power <= 16 ? Int(power) : nil
    }

    func color(at uv: SIMD2<Float>, progress: Float, ratio: Float, from: TransitionPicture, to: TransitionPicture) -> SIMD4<Float> {
        let a = from.color(uv), b = to.color(uv)
        let d = a - b
        let switched = (d * d).sum().squareRoot() <= progress
        var fade: Float
        if let n = wholePower {
            fade = 1
            for _ in 0..<n { fade *= progress }
        } else {
            fade = pow(progress, power)
        }
        return mix(switched ? b : a, b, fade)
    }
}
