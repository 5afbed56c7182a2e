/// gl-transitions' `flyeye`: a cross-fade seen through a fly's compound eye: both pictures are
/// displaced by a grid of small lens bumps, size·(cos(zoom·x), sin(zoom·y)), the outgoing one
/// more as it leaves and the incoming one less as it arrives; the outgoing picture's red, green
/// and blue are displaced by (1 − s), 1 and (1 + s) times that (s = `color_separation`), for a
/// fringe of colour. As in the original, the outgoing picture's part is taken as opaque (over
/// black, its colours being premultiplied).
struct Flyeye: TransitionKernel {
    static let declaration = TransitionDeclaration(
        name: "flyeye", glName: "flyeye",
        summary: "A cross-fade seen through a fly's eye of little lenses, with colour fringes on the outgoing clip.",
        parameters: [TransitionParameter("size", .number(0.04), range: 0...1, "how far the lenses displace the pictures, as a fraction of the frame"),
                     TransitionParameter("zoom", .number(50), "how many lenses: the frequency of the lens grid, in radians across the frame"),
                     TransitionParameter("color_separation", .number(0.3), "how far apart the outgoing clip's red, green and blue are displaced")])

    let size: Float, zoom: Float, low: Float, high: Float

    init(_ values: TransitionValues) {
        size = values.number("size")
        zoom = values.number("zoom")
        let separation = values.number("color_separation")
        low = 1 - separation
        high = 1 + separation
    }

    func color(at uv: SIMD2<Float>, progress: Float, ratio: Float, from: TransitionPicture, to: TransitionPicture) -> SIMD4<Float> {
        let rest = 1 - progress
        let bump = size * SIMD2(cos(zoom * uv.x), sin(zoom * uv.y))
        let incoming = to.color(uv + rest * bump)
        let push = progress * bump
        let outgoing = SIMD4(from.color(uv + push * low).x, from.color(uv + push).y, from.color(uv + push * high).z, 1)
        return incoming * progress + outgoing * rest
    }
}
