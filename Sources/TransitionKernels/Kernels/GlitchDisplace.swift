/// gl-transitions' `GlitchDisplace`: each picture is read displaced by an offset made of its
/// own red and green (the outgoing one reading the incoming picture, and vice versa), the
/// displaced outgoing picture turns to a doubled grey, and an exponential ease snaps the mix
/// over around the middle: a jolt of glitchy grey copies instead of a fade.
///
/// The offset of a colour c: (c·(0.33 − k) + 0.33·k)·strength for the red and green channels,
/// k = 0.7 for the outgoing picture with strength 1 − ease₁(p), k = 0.5 for the incoming one with
/// strength ease₂(p); ease₁ is exponential in and out (2^(20p − 10)/2 …), ease₂ exponential out.
/// (The original also computes three Voronoi distances that it never uses.)
struct GlitchDisplace: FrameKernel {
    static let declaration = TransitionDeclaration(
        name: "glitch-displace", glName: "GlitchDisplace",
        summary: "The clips jolt into displaced grey copies of each other, then snap to the incoming clip.")

    init(_ values: TransitionValues) {}

    /// Exponential ease in and out.
    @inline(__always) static func easeInOut(_ t: Float) -> Float {
        if t == 0 || t == 1 { return t }
        return t < 0.5 ? 0.5 * pow(2, 20 * t - 10) : 1 - 0.5 * pow(2, 10 - 20 * t)
    }

    /// Exponential ease out.
    @inline(__always) static func easeOut(_ t: Float) -> Float { t == 1 ? t : 1 - pow(2, -10 * t) }

    @inline(__always) static func displaced(_ uv: SIMD2<Float>, _ c: SIMD4<Float>, depth k: Float, strength: Float) -> SIMD2<Float> {
        uv + (SIMD2(c.x, c.y) * (0.33 - k) + 0.33 * k) * strength
    }

    /// The eases and smoothsteps of the progress are the frame's.
    struct Frame { let snap: Float, out: Float, grey: Float, shifted: Float }

    func frame(progress: Float, ratio: Float, width: Int) -> Frame {
        Frame(snap: Self.easeInOut(progress), out: Self.easeOut(progress), grey: smoothstep(0, 0.5, progress), shifted: smoothstep(1, 0.5, progress))
    }

    func color(at uv: SIMD2<Float>, column: Int, _ f: Frame, from: TransitionPicture, to: TransitionPicture) -> SIMD4<Float> {
        let a = from.color(uv), b = to.color(uv)
        let toShifted = to.color(Self.displaced(uv, a, depth: 0.7, strength: 1 - f.snap))
        let fromShifted = from.color(Self.displaced(uv, b, depth: 0.5, strength: f.out))
        let m = pointwiseMin(fromShifted, toShifted)
        let grey: Float = 2 * (0.299 * m.x + 0.587 * m.y + 0.114 * m.z)
        let outgoing = mix(a, SIMD4(grey, grey, grey, 2), f.grey)
        let incoming = mix(b, toShifted, f.shifted)
        return pointwiseMin(mix(outgoing, incoming, f.snap), SIMD4(repeating: 1))
    }
}
