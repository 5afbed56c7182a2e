/// gl-transitions' `circle`: a circle of the background colour closes on the outgoing picture
/// and opens on the incoming one; its radius is √8·|p − ½| in uv units (so it is an ellipse on
/// a frame that is not square, as in the original).
struct Circle: TransitionKernel {
    static let declaration = TransitionDeclaration(
        name: "circle", glName: "circle",
        summary: "A circle closes on the outgoing clip to the background colour, then opens on the incoming one.",
        parameters: [TransitionParameter("center", .vector([0.5, 0.5]), "the circle's centre, in fractions of the frame from its bottom-left corner"),
                     TransitionParameter("back_color", .color([0.1, 0.1, 0.1, 1]), "the colour outside the circle")])

    let center: SIMD2<Float>, backColor: SIMD4<Float>

    init(_ values: TransitionValues) {
        center = values.vector("center")
        backColor = values.color("back_color")
    }

    func color(at uv: SIMD2<Float>, progress: Float, ratio: Float, from: TransitionPicture, to: TransitionPicture) -> SIMD4<Float> {
        let radius = Float(8).squareRoot() * abs(progress - 0.5)
        guard distance(uv, center) <= radius else { return backColor }
        return progress < 0.5 ? from.color(uv) : to.color(uv)
    }
}
