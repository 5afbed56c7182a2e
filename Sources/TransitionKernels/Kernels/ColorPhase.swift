/// gl-transitions' `colorphase`: a cross-fade in which each channel (red, green, blue, alpha)
/// changes over its own span of the progress, from `from_step` to `to_step` (smoothstepped),
/// so the colours pass through tints: by default red first, then green, then blue.
struct ColorPhase: TransitionKernel {
    static let declaration = TransitionDeclaration(
        name: "color-phase", glName: "colorphase",
        summary: "A cross-fade in which red, green and blue change one after the other, so the picture passes through colour tints.",
        parameters: [TransitionParameter("from_step", .color([0, 0.2, 0.4, 0]), "for red, green, blue and alpha, the progress at which each channel starts to change (RGBA as numbers, not premultiplied)"),
                     TransitionParameter("to_step", .color([0.6, 0.8, 1, 1]), "for each channel, the progress at which it has finished changing; above from_step")])

    let start: SIMD4<Float>, span: SIMD4<Float>

    /// The four numbers as given (not premultiplied: they are steps, not a colour).
    private static func steps(_ values: TransitionValues, _ name: String) -> SIMD4<Float> {
        guard case .color(let c)? = values.values[name] else { preconditionFailure("transition parameter '\(name)' is not four numbers") }
        return SIMD4(Float(c.x), Float(c.y), Float(c.z), Float(c.w))
    }

    init(_ values: TransitionValues) {
        start = Self.steps(values, "from_step")
        span = Self.steps(values, "to_step") - start
    }

    func color(at uv: SIMD2<Float>, progress: Float, ratio: Float, from: TransitionPicture, to: TransitionPicture) -> SIMD4<Float> {
        // smoothstep per channel.
        var t = (SIMD4(repeating: progress) - start) / span
        t.clamp(lowerBound: .zero, upperBound: .one)
        return mix(from.color(uv), to.color(uv), t * t * (3 - 2 * t))
    }
}
