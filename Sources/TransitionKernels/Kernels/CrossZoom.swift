/// gl-transitions' `CrossZoom`: a zoom blur towards a centre that drifts from x = ¼ to ¾ along
/// the middle line, strongest halfway (strength·sin²(π·progress)), while the pictures
/// cross-fade on an exponential ease-in-out (so the switch happens quickly around the middle).
/// The blur averages 41 reads along the line from the pixel towards the centre, weighted by a
/// parabola 4t(1 − t), their positions jittered by a pseudo-random fraction of a step per pixel
/// to hide the banding.
///
/// Rendered, the pictures are mixed first and the mix blurred: each read is bilinear and the
/// cross-fade linear, so the blur of the mix is the mix of the blurs (to Float rounding), with
/// 41 reads a pixel instead of 82. The output is written in stripes 64 pixels wide, so the
/// reads of neighbouring pixels (which share their lines towards the centre) stay in the cache;
/// all but the outermost pixels read without clamping.
struct CrossZoom: TransitionKernel {
    static let declaration = TransitionDeclaration(
        name: "cross-zoom", glName: "CrossZoom",
        summary: "The outgoing clip blurs into a fast zoom and the incoming one comes out of it.",
        parameters: [TransitionParameter("strength", .number(0.4), range: 0...1, "how far the zoom blur reaches at its strongest, as a fraction of the way to the centre")])

    let strength: Float

    init(_ values: TransitionValues) { strength = values.number("strength") }

    /// Exponential ease-in-out of 0…1: 2^(10(2t − 1))/2 below ½, 1 − 2^(−10(2t − 1))/2 above.
    @inline(__always) static func dissolve(_ t: Float) -> Float {
        if t == 0 { return 0 }
        if t == 1 { return 1 }
        let u = 2 * t - 1
        return u < 0 ? 0.5 * pow(2, 10 * u) : 0.5 * (2 - pow(2, -10 * u))
    }

    /// The blur's centre and reach at `progress`: a sinusoidal ease-in-out over half the
    /// transition, so it returns to 0 at the end.
    @inline(__always) func zoom(_ progress: Float) -> (center: SIMD2<Float>, blur: Float) {
        (SIMD2(0.25 + 0.5 * progress, 0.5), -strength / 2 * (cos(Float.pi * progress / 0.5) - 1))
    }

    /// `picture` blurred at `uv` along `toward` (the way to the centre times the reach).
    @inline(__always) static func blurred(_ picture: TransitionPicture, at uv: SIMD2<Float>, toward: SIMD2<Float>) -> SIMD4<Float> {
        weighted(jitter: random(uv)) { t in picture.color(uv + toward * t) }
    }

    /// The blur's mean of 41 reads, `read(t)` at t = (i + jitter)/40 for i = 0…40, each
    /// weighted 4t(1 − t).
    @inline(__always) static func weighted(jitter: Float, _ read: (Float) -> SIMD4<Float>) -> SIMD4<Float> {
        var sum = SIMD4<Float>.zero, total: Float = 0
        for i in 0...40 {
            let t = (Float(i) + jitter) * (1 / 40)
            let weight = 4 * (t - t * t)
            sum += read(t) * weight
            total += weight
        }
        return sum / total
    }

    /// One pixel as the original computes it, each picture blurred and the blurs mixed (the
    /// reference `render` is tested against).
    func color(at uv: SIMD2<Float>, progress: Float, ratio: Float, from: TransitionPicture, to: TransitionPicture) -> SIMD4<Float> {
        let (center, blur) = zoom(progress)
        let toward = (center - uv) * blur
        return mix(Self.blurred(from, at: uv, toward: toward), Self.blurred(to, at: uv, toward: toward), Self.dissolve(progress))
    }

    func render(progress: Float, from: TransitionPicture, to: TransitionPicture, into output: TransitionPicture,
                workspace: TransitionWorkspace, bands: TransitionBands) {
        let dissolve = Self.dissolve(progress)
        let width = output.width, height = output.height
        let mixed: TransitionPicture
        if dissolve <= 0 {
            mixed = from
        } else if dissolve >= 1 {
            mixed = to
        } else {
            let picture = workspace.picture(0, width: width, height: height)
            bands { rows in
                for i in rows.lowerBound * width..<rows.upperBound * width {
                    picture.pixels[i] = mix(from.pixels[i], to.pixels[i], dissolve)
                }
            }
            mixed = picture
        }
        let (center, blur) = zoom(progress)
        let du = 1 / Float(width), dv = 1 / Float(height)
        let columns = Float(width), rowCount = Float(height)
        // Every read of a pixel off the picture's outer ring lies between the pixel and a
        // little past the centre (t < 1.025, blur ≤ 1): inside the picture, where reads need
        // no clamping. The ring's pixels read through `blurred`.
        let unclamped = blur >= 0 && blur <= 1 && width > 2 && height > 2
        bands { rows in
            for left in stride(from: 0, to: width, by: 64) {
                for y in rows {
                    let v = 1 - (Float(y) + 0.5) * dv
                    let row = output.pixels + y * width
                    let inner = unclamped && y > 0 && y < height - 1
                    for x in left..<min(left + 64, width) {
                        let uv = SIMD2((Float(x) + 0.5) * du, v)
                        let toward = (center - uv) * blur
                        guard inner, x > 0, x < width - 1 else {
                            row[x] = TransitionRenderer.stored(Self.blurred(mixed, at: uv, toward: toward))
                            continue
                        }
                        // `blurred` in pixel coordinates: read at start + reach·t.
                        let start = SIMD2(uv.x * columns - 0.5, (1 - uv.y) * rowCount - 0.5)
                        let reach = SIMD2(toward.x * columns, -toward.y * rowCount)
                        row[x] = TransitionRenderer.stored(Self.weighted(jitter: random(uv)) { t in
                            let at = start + reach * t
                            return mixed.interiorSample(at.x, at.y)
                        })
                    }
                }
            }
        }
    }
}
