/// gl-transitions' `multiply_blend`: the outgoing picture fades to the product of the two
/// pictures (a multiply blend, darker than both) by the middle, which then fades to the
/// incoming one.
struct MultiplyBlend: TransitionKernel {
    static let declaration = TransitionDeclaration(
        name: "multiply-blend", glName: "multiply_blend",
        summary: "The clips fade through their multiply blend, darker than either.")

    init(_ values: TransitionValues) {}

    func color(at uv: SIMD2<Float>, progress: Float, ratio: Float, from: TransitionPicture, to: TransitionPicture) -> SIMD4<Float> {
        let a = from.color(uv), b = to.color(uv)
        let product = a * b
        return progress < 0.5 ? mix(a, product, 2 * progress) : mix(product, b, 2 * progress - 1)
    }
}
