/// gl-transitions' `doorway`: the outgoing picture splits down the middle and its halves swing
/// open like a pair of doors (each half slides outwards by progress/2 and is squeezed vertically
/// towards its inner edge, 1/(1 + perspective·progress·(1 − slit)), for perspective), while the
/// incoming picture comes forward from `depth` times farther away, over a black floor that
/// reflects it.
struct Doorway: TransitionKernel {
    static let declaration = TransitionDeclaration(
        name: "doorway", glName: "doorway",
        summary: "The outgoing clip opens like a pair of doors onto the incoming clip, which comes forward.",
        parameters: [TransitionParameter("reflection", .number(0.4), range: 0...1, "how bright the incoming clip's reflection on the floor is"),
                     TransitionParameter("perspective", .number(0.4), range: 0...10, "how strongly the doors are foreshortened as they open"),
                     TransitionParameter("depth", .number(3), range: 0.001...100, "how far away the incoming clip starts, as a zoom-out factor")])

    let reflection: Float, perspective: Float, depth: Float

    init(_ values: TransitionValues) {
        reflection = values.number("reflection")
        perspective = values.number("perspective")
        depth = values.number("depth")
    }

    func color(at uv: SIMD2<Float>, progress: Float, ratio: Float, from: TransitionPicture, to: TransitionPicture) -> SIMD4<Float> {
        // How far the pixel is past the edge of its door (the doors leave a slit `progress` wide).
        let slit = 2 * abs(uv.x - 0.5) - progress
        if slit > 0 {
            var door = uv + SIMD2((uv.x > 0.5 ? -0.5 : 0.5) * progress, 0)
            let squeeze = 1 / (1 + perspective * progress * (1 - slit))
            door.y = (door.y - squeeze / 2) * squeeze + squeeze / 2
            if Cube.inside(door) { return from.color(door) }
        }
        let size = mix(1, depth, 1 - progress)
        let toP = (uv - 0.5) * size + 0.5
        if Cube.inside(toP) { return to.color(toP) }
        let mirror = SIMD2(toP.x, -1.2 * toP.y - 0.02)
        guard Cube.inside(mirror) else { return SIMD4(0, 0, 0, 1) }
        return opaque(rgb(to.color(mirror)) * (reflection * (1 - mirror.y)))
    }
}
