/// gl-transitions' `directionalwipe`: a straight soft edge sweeps across the frame in
/// `direction`, uncovering the incoming picture behind it.
struct DirectionalWipe: TransitionKernel {
    static let declaration = TransitionDeclaration(
        name: "directional-wipe", glName: "directionalwipe",
        summary: "A straight, soft-edged wipe crosses the frame in a given direction and uncovers the incoming clip.",
        parameters: [TransitionParameter("direction", .vector([1, -1]), "the way the edge travels, in uv units (x right, y up); not (0, 0)"),
                     TransitionParameter("smoothness", .number(0.5), range: 0...10, "the width of the soft edge, in the same units as the sweep")])

    let front: WipeFront

    init(_ values: TransitionValues) {
        front = WipeFront(direction: values.vector("direction"), smoothness: values.number("smoothness"))
    }

    func color(at uv: SIMD2<Float>, progress: Float, ratio: Float, from: TransitionPicture, to: TransitionPicture) -> SIMD4<Float> {
        // The original forces the outgoing picture at progress 0, where its edge is not yet fully off the frame.
        guard progress > 0 else { return from.color(uv) }
        let m = 1 - front.behind(uv, progress)
        return mix(from.color(uv), to.color(uv), m)
    }
}

/// The moving straight front shared by the directional wipes (directional-wipe,
/// directional-warp, squares-wire). The direction is scaled to unit L1 norm (|x| + |y| = 1),
/// so the projection s = v·uv of the frame spans exactly one unit, from d − ½ to d + ½ where d
/// is the centre's projection. The front sits at d − ½ + progress·(1 + smoothness) and the
/// soft band reaches `smoothness` behind it, so it starts wholly before the frame and ends
/// wholly past it.
struct WipeFront: Sendable {
    let v: SIMD2<Float>, start: Float, smoothness: Float, travel: Float

    init(direction: SIMD2<Float>, smoothness: Float) {
        let unit = normalize(direction)
        v = unit / (abs(unit.x) + abs(unit.y))
        start = dot(v, SIMD2(0.5, 0.5)) - 0.5
        self.smoothness = smoothness
        travel = 1 + smoothness
    }

    /// 0 where the front has passed `uv`, 1 where it has yet to come, a smooth ramp between.
    @inline(__always) func behind(_ uv: SIMD2<Float>, _ progress: Float) -> Float {
        smoothstep(-smoothness, 0, dot(v, uv) - (start + progress * travel))
    }
}
