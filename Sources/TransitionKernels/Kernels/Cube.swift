/// gl-transitions' `cube`: the two pictures are the faces of a cube turning from right to left,
/// the outgoing face narrowing to the left with perspective while the incoming one widens from
/// the right. The whole cube backs away (by `unzoom`) towards the middle of the turn and floats
/// above a black floor that reflects both faces, fading downwards.
///
/// A face is drawn by mapping the pixel into the face's own uv: x is squeezed into the part of
/// the frame the face covers, then y is foreshortened by the perspective s of the face's edge,
/// y′ = (y − ½·(1 − s)·x)/(1 + (s − 1)·x) with x counted from the face's far edge (the left edge
/// for the outgoing face, measured from the right for the incoming one).
struct Cube: TransitionKernel {
    static let declaration = TransitionDeclaration(
        name: "cube", glName: "cube",
        summary: "The clips turn like two faces of a cube over a reflecting floor.",
        parameters: [TransitionParameter("persp", .number(0.7), range: 0...1, "how strong the perspective of the turning faces is"),
                     TransitionParameter("unzoom", .number(0.3), range: 0...1, "how far the cube backs away halfway through"),
                     TransitionParameter("reflection", .number(0.4), range: 0...1, "how bright the reflection on the floor is"),
                     TransitionParameter("floating", .number(3), range: 0...100, "how high the cube floats above the floor, in hundredths of the frame")])

    let persp: Float, unzoom: Float, reflection: Float, floorOffset: Float

    init(_ values: TransitionValues) {
        persp = values.number("persp")
        unzoom = values.number("unzoom")
        reflection = values.number("reflection")
        floorOffset = values.number("floating") / 100
    }

    @inline(__always) static func inside(_ p: SIMD2<Float>) -> Bool { p.x > 0 && p.y > 0 && p.x < 1 && p.y < 1 }

    /// The foreshortened y at `x` from the far edge, edge perspective `s`.
    @inline(__always) static func foreshorten(_ y: Float, _ x: Float, _ s: Float) -> Float { (y - 0.5 * (1 - s) * x) / (1 + (s - 1) * x) }

    func color(at uv: SIMD2<Float>, progress: Float, ratio: Float, from: TransitionPicture, to: TransitionPicture) -> SIMD4<Float> {
        let back = unzoom * 2 * (0.5 - abs(0.5 - progress))
        let p = -back * 0.5 + (1 + back) * uv
        // The outgoing face covers x in progress…1, its far edge at the left.
        let fx = (p.x - progress) / (1 - progress)
        let fromP = SIMD2(fx, Self.foreshorten(p.y, fx, 1 - progress * (1 - persp)))
        if Self.inside(fromP) { return from.color(fromP) }
        // The incoming face covers x in 0…progress, x counted from its right edge.
        let tx = 1 - p.x / progress
        let toP = SIMD2(1 - tx, Self.foreshorten(p.y, tx, progress * progress + (1 - progress * progress) * persp))
        if Self.inside(toP) { return to.color(toP) }
        // The floor: each face mirrored below itself, 1.2 times as tall, fading with depth.
        var floor = SIMD3<Float>.zero
        let fromMirror = SIMD2(fromP.x, -1.2 * fromP.y - floorOffset)
        if Self.inside(fromMirror) { floor += rgb(from.color(fromMirror)) * (reflection * (1 - fromMirror.y)) }
        let toMirror = SIMD2(toP.x, -1.2 * toP.y - floorOffset)
        if Self.inside(toMirror) { floor += rgb(to.color(toMirror)) * (reflection * (1 - toMirror.y)) }
        return opaque(floor)
    }
}
