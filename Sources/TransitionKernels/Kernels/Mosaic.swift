/// gl-transitions' `Mosaic`: the frame zooms out (by up to 3× at the middle) onto an endless
/// grid of tiles, each a copy of the outgoing or the incoming picture turned by a random
/// quarter turn, while the view pans (with a squared cosine ease) from tile (0, 0) — the
/// outgoing picture — to the tile (`endx`, `endy`), which is the incoming picture upright.
///
/// A tile (i, j) (the cell of the grid, in picture units, that holds the point) draws its
/// number r = random(i, j): it is the incoming picture when r > ½, and turned by −⌊4r⌋ quarter
/// turns about its centre.
struct Mosaic: TransitionKernel {
    static let declaration = TransitionDeclaration(
        name: "mosaic", glName: "Mosaic",
        summary: "The view zooms out over a wall of turned tiles of both clips and pans to the tile that holds the incoming clip.",
        parameters: [TransitionParameter("endx", .integer(2), "the column of the tile the view ends on, counted from the outgoing picture's"),
                     TransitionParameter("endy", .integer(-1), "the row of the tile the view ends on, counted upwards from the outgoing picture's")])

    let end: SIMD2<Float>

    init(_ values: TransitionValues) { end = SIMD2(Float(values.integer("endx")), Float(values.integer("endy"))) }

    func color(at uv: SIMD2<Float>, progress: Float, ratio: Float, from: TransitionPicture, to: TransitionPicture) -> SIMD4<Float> {
        let s = 2 * progress - 1
        let zoom = 3 - 2 * s * s // 1 at either end, 3 in the middle
        let ease = 0.5 - 0.5 * cos(progress * Float.pi)
        let centre = mix(SIMD2<Float>(0.5, 0.5), end + 0.5, ease * ease)
        let point = (uv - 0.5) * zoom + centre
        let tile = floor(point)
        var local = fract(point)
        if tile == end { return to.color(local) }
        let r = random(tile)
        let d = local - 0.5
        switch Int(r * 4) { // a rotation by −k·90°
        case 1: local = SIMD2(d.y, -d.x) + 0.5
        case 2: local = SIMD2(-d.x, -d.y) + 0.5
        case 3: local = SIMD2(-d.y, d.x) + 0.5
        default: break
        }
        return r > 0.5 ? to.color(local) : from.color(local)
    }
}
