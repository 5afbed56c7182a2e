/// gl-transitions' `displacement`: both pictures are shifted sideways by a picture's
/// brightness while they cross-fade. Each pixel reads the map's red channel d (stretched over
/// the frame) times `strength`: the outgoing picture is read progress·d to the right, the
/// incoming one (1 − progress)·d to the left, so bright parts of the map smear furthest and
/// everything settles as each picture takes over.
struct Displacement: TransitionKernel {
    static let declaration = TransitionDeclaration(
        name: "displacement", glName: "displacement",
        summary: "The two clips cross-fade while a picture's bright parts push them sideways, the outgoing one away and the incoming one into place.",
        parameters: [TransitionParameter("displacement_map", .picture(nil),
                                         "the picture whose brightness (its red channel) says how far each pixel moves, stretched over the frame: a media name"),
                     TransitionParameter("strength", .number(0.5), range: 0...10, "how far a white part of the map moves the pictures, in frame widths")])

    let map: TransitionPicture
    let strength: Float

    init(_ values: TransitionValues) {
        map = values.picture("displacement_map")
        strength = values.number("strength")
    }

    func color(at uv: SIMD2<Float>, progress: Float, ratio: Float, from: TransitionPicture, to: TransitionPicture) -> SIMD4<Float> {
        let d = map.color(uv).x * strength
        let outgoing = from.color(SIMD2(uv.x + progress * d, uv.y)), incoming = to.color(SIMD2(uv.x - (1 - progress) * d, uv.y))
        return mix(outgoing, incoming, progress)
    }
}
