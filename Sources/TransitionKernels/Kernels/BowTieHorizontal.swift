/// gl-transitions' `BowTieHorizontal`: two triangles of the incoming picture grow from the
/// middles of the left and right edges towards each other, their tips meeting at the centre
/// halfway, like a bow tie, until they cover the frame. Each triangle's tip is `progress` in
/// from its edge and its base spans ½ ± progress along the edge. Within 0.005 of a triangle's
/// slanted sides the two pictures are blended linearly (on the half of the frame the triangle
/// grows from), and the original's quirks are kept: below progress 0.1 the left triangle still
/// shows the outgoing picture, the right one does not.
struct BowTieHorizontal: TransitionKernel {
    static let declaration = TransitionDeclaration(
        name: "bow-tie-horizontal", glName: "BowTieHorizontal",
        summary: "Two triangles of the incoming clip grow from the left and right edges and meet in the middle like a bow tie.")

    init(_ values: TransitionValues) {}

    func color(at uv: SIMD2<Float>, progress: Float, ratio: Float, from: TransitionPicture, to: TransitionPicture) -> SIMD4<Float> {
        bowTie(uv, progress, from: from, to: to)
    }
}

/// The bow tie along the first axis of `q` (x for the horizontal one; the vertical one passes
/// uv with x and y swapped, which mirrors the picture of triangles onto the other axis), the
/// pictures read at `uv`.
@inline(__always) func bowTie(_ q: SIMD2<Float>, _ progress: Float, uv: SIMD2<Float>? = nil, from: TransitionPicture, to: TransitionPicture) -> SIMD4<Float> {
    let at = uv ?? q
    let p = progress
    // Near side: tip (p, ½), base (0, ½ ∓ p).
    let tip = SIMD2<Float>(p, 0.5), low = SIMD2<Float>(0, 0.5 - p), high = SIMD2<Float>(0, 0.5 + p)
    if inTriangle(q, tip, low, high) {
        if p < 0.1 { return from.color(at) }
        if q.x < 0.5 { return mix(from.color(at), to.color(at), edgeBlend(q, low, high, tip)) }
        return p > 0 ? to.color(at) : from.color(at)
    }
    // Far side: tip (1 − p, ½), base (1, ½ ∓ p).
    let farTip = SIMD2<Float>(1 - p, 0.5), farLow = SIMD2<Float>(1, 0.5 - p), farHigh = SIMD2<Float>(1, 0.5 + p)
    if inTriangle(q, farTip, farLow, farHigh) {
        if q.x >= 0.5 { return mix(from.color(at), to.color(at), edgeBlend(q, farLow, farHigh, farTip)) }
        return from.color(at)
    }
    return from.color(at)
}

/// Whether `q` is inside triangle (a, b, c) or on its edges: the three edge cross products
/// (sides of each edge) are all negative or all not. A degenerate triangle (progress 0)
/// contains every point, as in the original.
@inline(__always) private func inTriangle(_ q: SIMD2<Float>, _ a: SIMD2<Float>, _ b: SIMD2<Float>, _ c: SIMD2<Float>) -> Bool {
    @inline(__always) func side(_ p1: SIMD2<Float>, _ p2: SIMD2<Float>, _ p3: SIMD2<Float>) -> Bool {
        (p1.x - p3.x) * (p2.y - p3.y) - (p2.x - p3.x) * (p1.y - p3.y) < 0
    }
    let s1 = side(q, a, b), s2 = side(q, b, c), s3 = side(q, c, a)
    return s1 == s2 && s2 == s3
}

/// 0 → 1 over the 0.005 nearest the lines through `tip` and each base corner (the distance to
/// the nearer line over 0.005), 1 beyond.
@inline(__always) private func edgeBlend(_ q: SIMD2<Float>, _ base1: SIMD2<Float>, _ base2: SIMD2<Float>, _ tip: SIMD2<Float>) -> Float {
    @inline(__always) func lineDistance(_ base: SIMD2<Float>) -> Float {
        let along = base - tip
        return abs(dot(normalize(SIMD2(along.y, -along.x)), base - q))
    }
    let d = min(lineDistance(base2), lineDistance(base1))
    return d < 0.005 ? d / 0.005 : 1
}
