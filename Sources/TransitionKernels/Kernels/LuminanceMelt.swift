/// gl-transitions' `luminance_melt`: the dark parts (or, with `above`, the bright parts) of the
/// outgoing picture melt away in ragged columns, uncovering the incoming picture, from the
/// top-right corner (`direction` true) or the bottom-right one (false), while the rest
/// cross-fades slowly (by p³).
///
/// A point switches when its distance to that corner, less p·e^noise(u) (a 2D simplex noise
/// along the top row: the columns' ragged front), is at most p − random(u, 0.1), and its
/// outgoing luma (0.299, 0.587, 0.114) is below (above) `l_threshold`. The noise is Ashima
/// Arts' (McEwan's) simplex noise on a skewed triangular grid with gradients from a
/// permutation polynomial (34x² + x mod 289).
struct LuminanceMelt: FrameKernel {
    static let declaration = TransitionDeclaration(
        name: "luminance-melt", glName: "luminance_melt",
        summary: "The dark (or bright) parts of the outgoing clip melt away in ragged columns onto the incoming clip.",
        parameters: [TransitionParameter("direction", .boolean(true), "true: the melt starts at the top-right corner; false: at the bottom-right one"),
                     TransitionParameter("l_threshold", .number(0.8), range: 0...1, "the luma that separates the parts that melt from those that fade"),
                     TransitionParameter("above", .boolean(false), "true: the parts brighter than l_threshold melt; false: the darker ones")])

    let corner: SIMD2<Float>, threshold: Float, above: Bool

    init(_ values: TransitionValues) {
        corner = SIMD2(1, values.boolean("direction") ? 1 : 0)
        threshold = values.number("l_threshold")
        above = values.boolean("above")
    }

    @inline(__always) static func mod289(_ x: SIMD3<Float>) -> SIMD3<Float> { x - floor(x * (1 / 289)) * 289 }
    @inline(__always) static func permute(_ x: SIMD3<Float>) -> SIMD3<Float> { mod289((x * 34 + 1) * x) }

    /// 2D simplex noise in about −1…1.
    static func simplexNoise(_ v: SIMD2<Float>) -> Float {
        let skew: Float = 0.366025403784439, unskew: Float = 0.211324865405187
        let cell = floor(v + (v.x + v.y) * skew)
        let p0 = v - cell + (cell.x + cell.y) * unskew           // from the first corner
        let step: SIMD2<Float> = p0.x > p0.y ? SIMD2(1, 0) : SIMD2(0, 1)
        let p1 = p0 - step + unskew                               // from the middle corner
        let p2 = p0 - 0.577350269189626                          // from the far corner (2·unskew − 1)
        let wrapped = cell - floor(cell * (1 / 289)) * 289
        let hash = permute(permute(wrapped.y + SIMD3(0, step.y, 1)) + wrapped.x + SIMD3(0, step.x, 1))
        var falloff = SIMD3<Float>(0.5 - dot(p0, p0), 0.5 - dot(p1, p1), 0.5 - dot(p2, p2))
        falloff.replace(with: 0, where: falloff .< 0)
        falloff *= falloff
        falloff *= falloff
        // 41 gradients on a diamond, picked by the hash.
        let gx = 2 * (hash * 0.024390243902439 - floor(hash * 0.024390243902439)) - 1
        let gy = SIMD3(abs(gx.x), abs(gx.y), abs(gx.z)) - 0.5
        let ax = gx - floor(gx + 0.5)
        falloff *= 1.79284291400159 - 0.85373472095314 * (ax * ax + gy * gy)
        let g = SIMD3(ax.x * p0.x + gy.x * p0.y, ax.y * p1.x + gy.y * p1.y, ax.z * p2.x + gy.z * p2.y)
        return 130 * (falloff * g).sum()
    }

    @inline(__always) func mixed(_ uv: SIMD2<Float>, progress: Float, swell: Float, random r0: Float,
                                 from: TransitionPicture, to: TransitionPicture) -> SIMD4<Float> {
        if progress == 0 { return from.color(uv) }
        if progress == 1 { return to.color(uv) }
        let a = from.color(uv), b = to.color(uv)
        let dist = distance(corner, uv) - progress * swell
        let r = progress - r0
        let lum = a.x * 0.299 + a.y * 0.587 + a.z * 0.114
        let melts = dist <= r && (above ? lum > threshold : lum < threshold)
        return mix(a, b, melts ? 1 : progress * progress * progress)
    }

    func color(at uv: SIMD2<Float>, progress: Float, ratio: Float, from: TransitionPicture, to: TransitionPicture) -> SIMD4<Float> {
        mixed(uv, progress: progress, swell: exp(Self.simplexNoise(SIMD2(uv.x, 0))), random: random(SIMD2(uv.x, 0.1)), from: from, to: to)
    }

    /// The noise and the random number depend on u alone: worked out once for each column.
    struct Frame { let swells: [Float], randoms: [Float], progress: Float }

    func frame(progress: Float, ratio: Float, width: Int) -> Frame {
        let du = 1 / Float(width)
        let u = (0..<width).map { (Float($0) + 0.5) * du }
        return Frame(swells: u.map { exp(Self.simplexNoise(SIMD2($0, 0))) }, randoms: u.map { random(SIMD2($0, 0.1)) }, progress: progress)
    }

    func color(at uv: SIMD2<Float>, column: Int, _ f: Frame, from: TransitionPicture, to: TransitionPicture) -> SIMD4<Float> {
        mixed(uv, progress: f.progress, swell: f.swells[column], random: f.randoms[column], from: from, to: to)
    }
}
