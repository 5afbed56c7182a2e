/// gl-transitions' `GridFlip`: the outgoing picture is cut into a `size` grid of tiles: thin
/// dividers of the background colour fade in between them (for the first `pause` of the
/// transition), then each tile flips over about its vertical middle line at its own
/// pseudo-random pace and shows the incoming picture on its back, and the dividers fade out
/// (the last `pause`).
///
/// A flip is drawn as a horizontal squeeze: with c the tile's flip phase (0 → 1), the tile is
/// |c − ½|·2 of its width wide, showing the outgoing picture until c = ½ and the incoming one
/// after, each stretched back by that factor about the tile's middle line.
struct GridFlip: TransitionKernel {
    static let declaration = TransitionDeclaration(
        name: "grid-flip", glName: "GridFlip",
        summary: "The outgoing clip is cut into a grid of tiles that flip over one by one to show the incoming clip.",
        parameters: [TransitionParameter("size", .vector([4, 4]), "the number of tiles across and up the frame (whole numbers, at least 1)"),
                     TransitionParameter("pause", .number(0.1), range: 0...0.5, "the fraction of the transition the dividers take to appear, and to disappear"),
                     TransitionParameter("divider_width", .number(0.05), range: 0...1, "the dividers' half-width, as a fraction of a tile's smaller side"),
                     TransitionParameter("bgcolor", .color([0, 0, 0, 1]), "the colour of the dividers and behind the flipping tiles"),
                     TransitionParameter("randomness", .number(0.1), range: 0...1, "how much the tiles' flips differ in pace")])

    let size: SIMD2<Float>, tile: SIMD2<Float>, pause: Float, divider: Float, background: SIMD4<Float>, randomness: Float

    init(_ values: TransitionValues) {
        size = gridSize(values.vector("size"))
        tile = 1 / size
        pause = values.number("pause")
        divider = min(tile.x, tile.y) * values.number("divider_width")
        background = values.color("bgcolor")
        randomness = values.number("randomness")
    }

    func color(at uv: SIMD2<Float>, progress: Float, ratio: Float, from: TransitionPicture, to: TransitionPicture) -> SIMD4<Float> {
        let cell = floor(size * uv)
        // The distance to the nearest edge of the pixel's tile.
        let low = tile * cell, high = tile * (cell + 1)
        let edge = min(min(abs(uv.x - low.x), abs(uv.x - high.x)), min(abs(uv.y - high.y), abs(uv.y - low.y)))
        let onDivider = edge < divider
        if progress < pause {
            return mix(background, from.color(uv), onDivider ? 1 - progress / pause : 1)
        }
        if progress >= 1 - pause {
            return mix(background, to.color(uv), onDivider ? (progress - 1 + pause) / pause : 1)
        }
        if onDivider { return background }
        let flip = smoothstep(0, 1 - (random(cell) - randomness), (progress - pause) / (1 - pause * 2))
        let width = abs(flip - 0.5)
        let middle = tile.x / 2 + low.x
        let at = SIMD2((uv.x - middle) / width * 0.5 + middle, uv.y)
        guard abs(size.x * (uv.x - low.x) - 0.5) <= width else { return background }
        return flip <= 0.5 ? from.color(at) : to.color(at)
    }
}
