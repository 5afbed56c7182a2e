/// gl-transitions' `BowTieVertical`: bow-tie-horizontal turned a quarter: two triangles of the
/// incoming picture grow from the middles of the bottom and top edges and meet at the centre.
/// (The original's "top" triangle is the one at uv y = 0, the bottom of the frame.) The maths is
/// bow-tie-horizontal's with x and y exchanged, the bottom triangle taking the left one's quirk
/// of showing the outgoing picture below progress 0.1.
struct BowTieVertical: TransitionKernel {
    static let declaration = TransitionDeclaration(
        name: "bow-tie-vertical", glName: "BowTieVertical",
        summary: "Two triangles of the incoming clip grow from the bottom and top edges and meet in the middle like a bow tie.")

    init(_ values: TransitionValues) {}

    func color(at uv: SIMD2<Float>, progress: Float, ratio: Float, from: TransitionPicture, to: TransitionPicture) -> SIMD4<Float> {
        bowTie(SIMD2(uv.y, uv.x), progress, uv: uv, from: from, to: to)
    }
}
