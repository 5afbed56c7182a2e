/// gl-transitions' `InvertedPageCurl` (after HP's WebVfx page curl): the outgoing picture is
/// peeled off like a page, curling from the bottom-right corner towards the top-left over a
/// cylinder, its grey underside visible on the curl, with soft shadows on the incoming
/// picture below it.
///
/// The page is handled in a frame turned by 100° (and shifted) so that the curl moves along its
/// y axis: a pixel's turned y minus the cylinder's position `amount` (−0.16 → 1.5 with progress)
/// is yc. Beyond the cylinder's radius R = 1/(2π) ahead of it the page is flat and unmoved;
/// more than R behind it the page has left and the incoming picture shows, darkened near the
/// cylinder. On the cylinder, acos(yc/R) plus the cylinder's turn (2π·amount) is the angle at
/// which the pixel's line of sight meets the rolled page; that angle, as a fraction of a turn,
/// is the page's y there, turned back by 100° into the picture's uv. Edges are softened over
/// 2/512 of the frame with a cubic falloff.
struct InvertedPageCurl: TransitionKernel {
    static let declaration = TransitionDeclaration(
        name: "inverted-page-curl", glName: "InvertedPageCurl",
        summary: "The outgoing clip curls away like a page turned from its bottom-right corner, uncovering the incoming one.")

    static let radius: Float = 1 / Float.pi / 2
    /// cos and sin of the 100° turn.
    static let c: Float = cos(100 * Float.pi / 180), s: Float = sin(100 * Float.pi / 180)

    init(_ values: TransitionValues) {}

    /// Into the turned frame: rotation by −100° plus the original's offset (−0.801, 0.89).
    @inline(__always) static func turned(_ p: SIMD2<Float>) -> SIMD2<Float> {
        SIMD2(c * p.x + s * p.y - 0.801, -s * p.x + c * p.y + 0.89)
    }

    /// Back into the picture's uv from turned x and page y (rotation by +100°, offset 0.985).
    @inline(__always) static func untwisted(_ x: Float, _ y: Float) -> SIMD2<Float> {
        SIMD2(c * x - s * y + 0.985, s * x + c * y + 0.985)
    }

    @inline(__always) static func inside(_ p: SIMD2<Float>) -> Bool { p.x >= 0 && p.y >= 0 && p.x <= 1 && p.y <= 1 }

    /// c2 where d < 0, c1 beyond 2/512, a cubic blend between.
    @inline(__always) static func soften(_ c1: SIMD4<Float>, _ c2: SIMD4<Float>, _ d: Float) -> SIMD4<Float> {
        let e = d * 512
        if e < 0 { return c2 }
        if e > 2 { return c1 }
        let k = 1 - e / 2
        return (c2 - c1) * (k * k * k) + c1
    }

    /// The distance from `p` to the unit square's edge (inside or out).
    @inline(__always) static func edgeDistance(_ p: SIMD2<Float>) -> Float {
        let outX = p.x < 0 || p.x > 1, outY = p.y < 0 || p.y > 1
        let dx = p.x < 0 ? -p.x : p.x > 1 ? p.x - 1 : abs(p.x > 0.5 ? 1 - p.x : p.x)
        let dy = p.y < 0 ? -p.y : p.y > 1 ? p.y - 1 : abs(p.y > 0.5 ? 1 - p.y : p.y)
        return outX && outY ? (dx * dx + dy * dy).squareRoot() : min(dx, dy)
    }

    /// A shadow strength 0…½ at a point of the page: ½·(1 − its distance from the middle/0.71)·(−yc/R)³.
    @inline(__always) static func pageShadow(_ p: SIMD2<Float>, _ yc: Float) -> Float {
        let d = p - 0.5
        let n = -yc / radius
        return (1 - (d.x * d.x + d.y * d.y).squareRoot() / 0.71) * (n * n * n) * 0.5
    }

    /// What shows through where the page is rolled away: the flat page ahead of the cylinder,
    /// the incoming picture behind it, or the page's far side seen from behind, fading at its edge.
    @inline(__always) func seeThrough(_ yc: Float, _ uv: SIMD2<Float>, _ turnedX: Float, _ turn: Float,
                                      _ from: TransitionPicture, _ to: TransitionPicture) -> SIMD4<Float> {
        let angle = Float.pi - (acos(clamp(yc / Self.radius, -1, 1)) - turn)
        let page = Self.untwisted(turnedX, angle / (2 * Float.pi))
        if yc <= 0 && !Self.inside(page) { return to.color(uv) }
        if yc > 0 { return from.color(uv) }
        return Self.soften(from.color(page), .zero, Self.edgeDistance(page))
    }

    /// seeThrough darkened by the curled page's shadow near `page`'s edge (unclamped).
    @inline(__always) func seeThroughWithShadow(_ yc: Float, _ uv: SIMD2<Float>, _ turnedX: Float, _ page: SIMD2<Float>,
                                                _ amount: Float, _ turn: Float,
                                                _ from: TransitionPicture, _ to: TransitionPicture) -> SIMD4<Float> {
        var shadow = (1 - Self.edgeDistance(page) * 30) / 3
        shadow = shadow < 0 ? 0 : shadow * amount
        var c = seeThrough(yc, uv, turnedX, turn, from, to)
        c.x -= shadow; c.y -= shadow; c.z -= shadow
        return c
    }

    func color(at uv: SIMD2<Float>, progress: Float, ratio: Float, from: TransitionPicture, to: TransitionPicture) -> SIMD4<Float> {
        let radius = Self.radius
        let amount = progress * (1.5 + 0.16) - 0.16
        let turn = 2 * Float.pi * amount
        let point = Self.turned(uv)
        let yc = point.y - amount
        if yc < -radius {
            // Behind the cylinder: the incoming picture, shadowed where the rolled page hangs over it.
            let ycBack = -radius - radius - yc
            let angle = acos(clamp(ycBack / radius, -1, 1)) + turn - Float.pi
            let page = Self.untwisted(point.x, angle / (2 * Float.pi))
            var shadow: Float = 0
            if ycBack < 0 && Self.inside(page) && (angle < Float.pi || amount > 0.5) { shadow = Self.pageShadow(page, ycBack) }
            return saturate(opaque(rgb(to.color(uv)) - shadow))
        }
        if yc > radius { return from.color(uv) }
        let angle = acos(clamp(yc / radius, -1, 1)) + turn - Float.pi
        let wrapped = mod(angle, 2 * Float.pi)
        if (wrapped > Float.pi && amount < 0.5) || (wrapped > Float.pi / 2 && amount < 0) {
            return seeThrough(yc, uv, point.x, turn, from, to)
        }
        let page = Self.untwisted(point.x, angle / (2 * Float.pi))
        if !Self.inside(page) {
            return saturate(seeThroughWithShadow(yc, uv, point.x, page, amount, turn, from, to))
        }
        // The page's underside: grey, lighter towards the cylinder's crest.
        let back = from.color(page)
        let crest = pow(max(0, 1 - abs(yc / radius)), 0.2)
        let grey = (back.x + back.z + back.y) / 15 + 0.8 * (crest / 2 + 0.5)
        var underside = SIMD4(grey, grey, grey, back.w)
        let beneath = yc < 0 ? SIMD4(0, 0, 0, Self.pageShadow(page, yc)) : from.color(uv)
        underside = Self.soften(underside, beneath, radius - abs(yc))
        let around = seeThroughWithShadow(yc, uv, point.x, page, amount, turn, from, to)
        // (Mixed before clamping: the shadowed colour may dip below 0 on the way, as in the original.)
        return saturate(Self.soften(underside, around, Self.edgeDistance(page)))
    }
}
