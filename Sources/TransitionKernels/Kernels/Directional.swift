/// gl-transitions' `Directional`: the outgoing picture slides out of the frame and the incoming
/// one follows it in, glued to its edge. Only the signs of `direction` matter: each pixel reads
/// both pictures at uv + progress·sign(direction), wrapped into the frame; while that point is
/// still inside the frame it shows the outgoing picture, beyond it the incoming one. With the
/// default (0, 1) the pictures move down.
struct Directional: TransitionKernel {
    static let declaration = TransitionDeclaration(
        name: "directional", glName: "Directional",
        summary: "The outgoing clip slides out of the frame and the incoming one slides in right behind it.",
        parameters: [TransitionParameter("direction", .vector([0, 1]),
                                         "which way the frame's content is read from: only the sign of each component counts; (0, 1) moves the pictures down, (1, 0) to the left")])

    let step: SIMD2<Float>

    init(_ values: TransitionValues) {
        let d = values.vector("direction")
        step = SIMD2(sign(d.x), sign(d.y))
    }

    func color(at uv: SIMD2<Float>, progress: Float, ratio: Float, from: TransitionPicture, to: TransitionPicture) -> SIMD4<Float> {
        let p = uv + progress * step
        let wrapped = fract(p)
        let inside = p.x >= 0 && p.x <= 1 && p.y >= 0 && p.y <= 1
        return inside ? from.color(wrapped) : to.color(wrapped)
    }
}
