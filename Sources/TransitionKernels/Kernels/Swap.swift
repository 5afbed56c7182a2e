/// gl-transitions' `swap`: the two pictures swap places like cards seen in perspective: the
/// outgoing one recedes (to `depth` times smaller) hinged on its left edge, turning away, while
/// the incoming one comes forward hinged on its right edge; the outgoing one is in front until
/// halfway, the incoming one after. Both reflect on a black floor.
///
/// Each card's uv is the pixel's offset from its hinge's midpoint scaled by size/(1 − k) across
/// and by size/(1 − size·k·x) up, x the distance along from the hinge, for perspective.
struct Swap: TransitionKernel {
    static let declaration = TransitionDeclaration(
        name: "swap", glName: "swap",
        summary: "The clips swap places like two cards turning in perspective over a reflecting floor.",
        parameters: [TransitionParameter("reflection", .number(0.4), range: 0...1, "how bright the reflections on the floor are"),
                     TransitionParameter("perspective", .number(0.2), range: 0...0.99, "how strongly the cards are foreshortened"),
                     TransitionParameter("depth", .number(3), range: 0.001...100, "how far the cards recede, as a zoom-out factor")])

    let reflection: Float, perspective: Float, depth: Float

    init(_ values: TransitionValues) {
        reflection = values.number("reflection")
        perspective = values.number("perspective")
        depth = values.number("depth")
    }

    func color(at uv: SIMD2<Float>, progress: Float, ratio: Float, from: TransitionPicture, to: TransitionPicture) -> SIMD4<Float> {
        let fromSize = mix(1, depth, progress), fromTilt = perspective * progress
        let fromP = SIMD2(uv.x * (fromSize / (1 - perspective * progress)),
                          (uv.y - 0.5) * (fromSize / (1 - fromSize * fromTilt * uv.x)) + 0.5)
        let toSize = mix(1, depth, 1 - progress), toTilt = perspective * (1 - progress)
        let toP = SIMD2((uv.x - 1) * (toSize / (1 - perspective * (1 - progress))) + 1,
                        (uv.y - 0.5) * (toSize / (1 - toSize * toTilt * (0.5 - uv.x))) + 0.5)
        let fromIn = Cube.inside(fromP), toIn = Cube.inside(toP)
        if progress < 0.5 {
            if fromIn { return from.color(fromP) }
            if toIn { return to.color(toP) }
        } else {
            if toIn { return to.color(toP) }
            if fromIn { return from.color(fromP) }
        }
        var floor = SIMD3<Float>.zero
        let fromMirror = SIMD2(fromP.x, -1.2 * fromP.y - 0.02)
        if Cube.inside(fromMirror) { floor += rgb(from.color(fromMirror)) * (reflection * (1 - fromMirror.y)) }
        let toMirror = SIMD2(toP.x, -1.2 * toP.y - 0.02)
        if Cube.inside(toMirror) { floor += rgb(to.color(toMirror)) * (reflection * (1 - toMirror.y)) }
        return opaque(floor)
    }
}
