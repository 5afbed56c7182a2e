/// gl-transitions' `windowblinds`: a cross-fade in horizontal bands. The frame is cut into
/// ⌊100·progress·y⌋ bands (ever more, ever thinner ones as it goes); the even ones fade 1.5
/// times as fast as the odd ones, and from progress 0.8 all are eased back to the plain
/// cross-fade, so it ends on the incoming picture. The fast bands overshoot (mixing by up to 1.5·progress) and are
/// clamped.
struct WindowBlinds: TransitionKernel {
    static let declaration = TransitionDeclaration(
        name: "window-blinds", glName: "windowblinds",
        summary: "A cross-fade in horizontal bands, alternate bands fading faster, like light through window blinds.")

    init(_ values: TransitionValues) {}

    func color(at uv: SIMD2<Float>, progress: Float, ratio: Float, from: TransitionPicture, to: TransitionPicture) -> SIMD4<Float> {
        let band = floor(uv.y * 100 * progress)
        let t = mod(band, 2) == 0 ? progress * 1.5 : progress
        // Past progress ⅔ the fast bands mix beyond the incoming picture (a factor above 1), as
        // in the original, whose output the framebuffer clamps.
        return saturate(mix(from.color(uv), to.color(uv), mix(t, progress, smoothstep(0.8, 1, progress))))
    }
}
