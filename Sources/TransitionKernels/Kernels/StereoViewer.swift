/// gl-transitions' `StereoViewer`, after a View-Master's lever: the outgoing picture shrinks to
/// `zoom` with rounded corners (first tenth of the progress), splits in two copies that swing
/// away up and down about pivots two frame widths left and right of the centre (to 0.48), the
/// frame stays black a moment, then two masks swing in the same way to uncover the incoming
/// picture (0.52 to 0.9), which finally grows back to the full frame.
///
/// The swings turn by a²/2.4 radians (a the phase's own progress) in coordinates where the
/// frame is 1 wide and 1/ratio high, so the turn is a true rotation on screen. Where the two
/// copies overlap they are combined with "screen" (1 − (1 − a)(1 − b)) after each was
/// "unscreened" (1 − √(1 − c)), so an area covered twice shows the picture unchanged.
struct StereoViewer: TransitionKernel {
    static let declaration = TransitionDeclaration(
        name: "stereo-viewer", glName: "StereoViewer",
        summary: "Like a View-Master's lever: the outgoing clip shrinks to a rounded card that swings apart, and the incoming one swings in.",
        parameters: [TransitionParameter("zoom", .number(0.88), range: 0.01...10, "the size the pictures shrink to, as a fraction of the frame (about 0.5 to 1)"),
                     TransitionParameter("corner_radius", .number(0.22), range: 0...0.5, "the radius of the rounded corners, as a fraction of the frame's height")])

    let zoom: Float, cornerRadius: Float
    static let black = SIMD4<Float>(0, 0, 0, 1)

    init(_ values: TransitionValues) {
        zoom = values.number("zoom")
        cornerRadius = values.number("corner_radius")
    }

    /// Whether `p` lies on the unit square with its corners rounded to ellipses of radii `r`.
    @inline(__always) static func onCard(_ p: SIMD2<Float>, _ r: SIMD2<Float>) -> Bool {
        onCorner(p, SIMD2(1, 1), r) && onCorner(p, SIMD2(1, -1), r) && onCorner(p, SIMD2(-1, 1), r) && onCorner(p, SIMD2(-1, -1), r)
    }

    /// Whether `p` is on the inner side of the corner that `axis` points inwards from: the
    /// point relative to the corner's ellipse centre, in radii and turned to point inwards, is
    /// inwards on either axis (and not beyond the edge), or inside the unit circle.
    @inline(__always) static func onCorner(_ p: SIMD2<Float>, _ axis: SIMD2<Float>, _ r: SIMD2<Float>) -> Bool {
        let corner = (1 - axis) * 0.5
        let q = (p - (corner + axis * r)) * axis / r
        return (q.x > 0 && q.y > -1) || (q.y > 0 && q.x > -1) || dot(q, q) < 1
    }

    @inline(__always) static func screen(_ a: SIMD4<Float>, _ b: SIMD4<Float>) -> SIMD4<Float> { 1 - (1 - a) * (1 - b) }
    @inline(__always) static func unscreen(_ c: SIMD4<Float>) -> SIMD4<Float> {
        let d = 1 - c
        return 1 - SIMD4(d.x.squareRoot(), d.y.squareRoot(), d.z.squareRoot(), d.w.squareRoot())
    }

    /// `p` (in centred, aspect-corrected coordinates) turned by the angle (cos c, sin s) about the
    /// point (pivot, 0).
    @inline(__always) static func swing(_ p: SIMD2<Float>, pivot: Float, _ c: Float, _ s: Float) -> SIMD2<Float> {
        let x = p.x - pivot
        return SIMD2(c * x - s * p.y + pivot, s * x + c * p.y)
    }

    /// The frame point `uv` as a picture point, through the swing about (pivot, 0).
    @inline(__always) static func swung(_ centred: SIMD2<Float>, pivot: Float, _ c: Float, _ s: Float, ratio: Float) -> SIMD2<Float> {
        let q = swing(centred, pivot: pivot, c, s)
        return SIMD2(q.x + 0.5, q.y * ratio + 0.5)
    }

    /// The picture unscreened at the frame point `p` of the shrunken card, or black off it.
    @inline(__always) func cardColor(_ picture: TransitionPicture, _ p: SIMD2<Float>, _ corners: SIMD2<Float>) -> SIMD4<Float> {
        let q = (p - 0.5) / zoom + 0.5
        return Self.onCard(q, corners) ? Self.unscreen(picture.color(q)) : Self.black
    }

    /// The picture shrunk to 1 − a + zoom·a with corners `corners`, plainly (the first and last
    /// tenth of the progress).
    @inline(__always) func shrunk(_ picture: TransitionPicture, _ uv: SIMD2<Float>, _ corners: SIMD2<Float>, _ a: Float) -> SIMD4<Float> {
        let q = (uv - 0.5) / (1 - a + zoom * a) + 0.5
        return Self.onCard(q, corners) ? picture.color(q) : Self.black
    }

    func color(at uv: SIMD2<Float>, progress: Float, ratio: Float, from: TransitionPicture, to: TransitionPicture) -> SIMD4<Float> {
        let corners = SIMD2(cornerRadius / ratio, cornerRadius)
        if progress <= 0 { return from.color(uv) }
        if progress < 0.1 {
            let a = progress / 0.1
            return shrunk(from, uv, corners * a, a)
        }
        if progress < 0.48 {
            // Two copies of the card swing apart.
            let a = (progress - 0.1) / 0.38, angle = a * a / 2.4
            let c = cos(angle), s = sin(angle)
            let centred = SIMD2(uv.x - 0.5, (uv.y - 0.5) / ratio)
            let up = cardColor(from, Self.swung(centred, pivot: -2, c, s, ratio: ratio), corners)
            let down = cardColor(from, Self.swung(centred, pivot: 2, c, s, ratio: ratio), corners)
            return Self.screen(up, down)
        }
        if progress < 0.9 {
            // Two card-shaped masks swing together over the still incoming card.
            let a = 1 - (progress - 0.52) / 0.38, angle = a * a / 2.4
            let c = cos(angle), s = sin(angle)
            let centred = SIMD2((uv.x - 0.5) / zoom, (uv.y - 0.5) / (zoom * ratio))
            let maskUp = Self.onCard(Self.swung(centred, pivot: -2, c, s, ratio: ratio), corners)
            let maskDown = Self.onCard(Self.swung(centred, pivot: 2, c, s, ratio: ratio), corners)
            guard maskUp || maskDown else { return Self.black }
            let card = cardColor(to, uv, corners)
            return Self.screen(maskUp ? card : Self.black, maskDown ? card : Self.black)
        }
        if progress < 1 {
            let a = (1 - progress) / 0.1
            return shrunk(to, uv, corners * a, a)
        }
        return to.color(uv)
    }
}
