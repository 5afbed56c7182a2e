/// gl-transitions' `luma`: a wipe shaped by a picture. The picture's red channel, stretched
/// over the frame, says when each pixel changes: where it is at least `progress` the outgoing
/// clip still shows, below it the incoming one. A black-to-white gradient wipes from its black
/// end; a photograph's tones dissolve in the order of their brightness.
struct Luma: TransitionKernel {
    static let declaration = TransitionDeclaration(
        name: "luma", glName: "luma",
        summary: "The incoming clip appears in the order of a picture's brightness: dark parts first, white last (a luma wipe).",
        parameters: [TransitionParameter("luminance_map", .picture(nil),
                                         "the picture whose brightness (its red channel) orders the change, stretched over the frame: a media name")])

    let map: TransitionPicture

    init(_ values: TransitionValues) { map = values.picture("luminance_map") }

    func color(at uv: SIMD2<Float>, progress: Float, ratio: Float, from: TransitionPicture, to: TransitionPicture) -> SIMD4<Float> {
        map.color(uv).x >= progress ? from.color(uv) : to.color(uv)
    }
}
