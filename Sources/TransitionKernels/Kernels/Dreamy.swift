/// gl-transitions' `Dreamy`: a cross-fade during which both pictures wave up and down in
/// columns: each is read 0.03·k·cos(10·(k + x)) higher, k being the progress for the outgoing
/// picture and 1 − progress for the incoming one, so the waving dies out as each settles.
struct Dreamy: TransitionKernel {
    static let declaration = TransitionDeclaration(
        name: "dreamy", glName: "Dreamy",
        summary: "A cross-fade in which both clips ripple up and down in soft waves, like a dream sequence.")

    init(_ values: TransitionValues) {}

    @inline(__always) static func shift(_ k: Float, _ x: Float) -> SIMD2<Float> { SIMD2(0, 0.03 * k * cos(10 * (k + x))) }

    func color(at uv: SIMD2<Float>, progress: Float, ratio: Float, from: TransitionPicture, to: TransitionPicture) -> SIMD4<Float> {
        mix(from.color(uv + Self.shift(progress, uv.x)), to.color(uv + Self.shift(1 - progress, uv.x)), progress)
    }
}
