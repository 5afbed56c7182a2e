/// gl-transitions' `GlitchMemories`: a cross-fade whose red, green and blue are read at
/// offsets 0.2, 0.3 and 0.5 times a shift that jumps every frame (it is fract(⌊p·(1200,
/// 3500)⌋/64) − ½, scaled by 0.3·(1 − p)), so the channels jitter apart and settle at the end;
/// opaque. (The original's 16-unit blocks are larger than the frame, so the shift is the same
/// over the whole frame.)
struct GlitchMemories: TransitionKernel {
    static let declaration = TransitionDeclaration(
        name: "glitch-memories", glName: "GlitchMemories",
        summary: "A cross-fade whose colour channels jitter apart, as on a damaged tape, and settle on the incoming clip.")

    init(_ values: TransitionValues) {}

    func color(at uv: SIMD2<Float>, progress: Float, ratio: Float, from: TransitionPicture, to: TransitionPicture) -> SIMD4<Float> {
        var shift = SIMD2<Float>()
        if progress > 0 {
            let noise = floor(SIMD2(progress, progress) * SIMD2(1200, 3500)) / 64
            shift = (fract(noise) - 0.5) * 0.3 * (1 - progress)
        }
        let red = uv + shift * 0.2, green = uv + shift * 0.3, blue = uv + shift * 0.5
        return SIMD4(mix(from.color(red).x, to.color(red).x, progress),
                     mix(from.color(green).y, to.color(green).y, progress),
                     mix(from.color(blue).z, to.color(blue).z, progress), 1)
    }
}
