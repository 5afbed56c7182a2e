/// gl-transitions' `hexagonalize`: like `pixelize` with hexagons (pointy-top, of circumradius
/// (√3/3)·d / `horizontal_hexagons` in frame widths, d = 2·min(p, 1 − p) in `steps` jumps):
/// each hexagon takes the colour at its centre, the hexagons grow to the middle and shrink
/// again while the pictures cross-fade. The grid is square on the frame (y is divided by the
/// aspect ratio) and centred on it.
///
/// The point's hexagon is found in cube coordinates (q, r, s = −q − r): the fractional ones,
/// each rounded, the one that moved most recomputed from the other two.
struct Hexagonalize: TransitionKernel {
    static let declaration = TransitionDeclaration(
        name: "hexagonalize", glName: "hexagonalize",
        summary: "The picture dissolves into growing hexagons, which shrink again on the incoming clip.",
        parameters: [TransitionParameter("steps", .integer(50), range: 0...10_000, "how many sizes the hexagons jump through to the middle; 0 grows them smoothly"),
                     TransitionParameter("horizontal_hexagons", .number(20), range: 0.01...10_000, "how many hexagons fit across the frame at the middle, in units of a hexagon's width")])

    let steps: Float, sizeScale: Float
    static let sqrt3: Float = 1.7320508

    init(_ values: TransitionValues) {
        steps = Float(values.integer("steps"))
        sizeScale = (Self.sqrt3 / 3) / values.number("horizontal_hexagons")
    }

    func color(at uv: SIMD2<Float>, progress: Float, ratio: Float, from: TransitionPicture, to: TransitionPicture) -> SIMD4<Float> {
        var dist = 2 * min(progress, 1 - progress)
        if steps > 0 { dist = ceil(dist * steps) / steps }
        var point = uv
        if dist > 0 {
            let size = sizeScale * dist
            let x = (uv.x - 0.5) / size, y = (uv.y / ratio - 0.5) / size
            // Fractional axial coordinates of the point, then the nearest hexagon.
            let fq = (Self.sqrt3 / 3) * x - y / 3, fr = 2 * y / 3, fs = -fq - fr
            var q = floor(fq + 0.5), r = floor(fr + 0.5)
            let s = floor(fs + 0.5)
            let dq = abs(q - fq), dr = abs(r - fr), ds = abs(s - fs)
            if dq > dr && dq > ds { q = -r - s } else if dr > ds { r = -q - s }
            point = SIMD2((Self.sqrt3 * q + Self.sqrt3 / 2 * r) * size + 0.5, (1.5 * r * size + 0.5) * ratio)
        }
        return mix(from.color(point), to.color(point), progress)
    }
}
