/// gl-transitions' `DreamyZoom`: the outgoing picture zooms in (to `scale`) and turns while it
/// washes out to white by the middle; the incoming picture then arrives zoomed and turned the
/// other way, washed out, and settles. The turn is done on a square grid (x scaled by ratio)
/// so the picture is not sheared. As in the original, the degrees are converted with π/80 per
/// degree (its DEG2RAD constant), not π/180: the default 6 turns the picture by about 13.5°.
/// The wash adds (up to 1) to every channel, capped at the alpha.
struct DreamyZoom: FrameKernel {
    static let declaration = TransitionDeclaration(
        name: "dreamy-zoom", glName: "DreamyZoom",
        summary: "The outgoing clip zooms and turns into a white wash, and the incoming one turns and zooms out of it.",
        parameters: [TransitionParameter("rotation", .number(6), "how far the pictures turn, in the original's units (about 2.25° each)"),
                     TransitionParameter("scale", .number(1.2), range: 0.001...100, "how far the pictures zoom in at the middle")])

    /// The original's degree conversion, π/80.
    static let unit: Float = 0.039269908169872415
    let turn: Float, scale: Float

    init(_ values: TransitionValues) {
        turn = values.number("rotation") * Self.unit
        scale = values.number("scale")
    }

    struct Frame { let first: Bool, ratio: Float, zoom: Float, c: Float, s: Float, wash: Float }

    /// The turn's cosine and sine, the zoom and the wash are the frame's.
    func frame(progress: Float, ratio: Float, width: Int) -> Frame {
        let first = progress < 0.5
        let phase = first ? progress * 2 : (progress - 0.5) * 2
        let angle = first ? turn * phase : -turn * (1 - phase)
        return Frame(first: first, ratio: ratio, zoom: first ? mix(1, scale, phase) : mix(scale, 1, phase), c: cos(angle), s: sin(angle),
                     wash: first ? phase : 1 - phase)
    }

    func color(at uv: SIMD2<Float>, column: Int, _ f: Frame, from: TransitionPicture, to: TransitionPicture) -> SIMD4<Float> {
        let ratio = f.ratio
        let q = (uv - 0.5) / f.zoom * SIMD2(ratio, 1)
        let at = SIMD2((f.c * q.x - f.s * q.y) / ratio + 0.5, f.s * q.x + f.c * q.y + 0.5)
        let picture = f.first ? from.color(at) : to.color(at)
        return saturate(picture + f.wash)
    }
}
