import CompositionGraph

/// The general compositing path: layers drawn onto a premultiplied RGBA canvas through their
/// full affine transform (rotation, mirroring) with bilinear sampling and anti-aliased
/// edges, then converted to Y′CbCr 4:2:0 once. Used only for frames that need it.
enum AffineCompositor {
    static func composite(_ plan: FramePlan, pictures: [LayerPicture?], background: Color, canvas: RGBAImage) {
        canvas.fill(YCbCrMatrix.premultipliedBytes(background))
        for (layer, picture) in zip(plan.layers, pictures) {
            switch picture {
            case .rgba(let image)?:
                withExtendedLifetime(image) {
                    draw(layer, ImageSampler(image), pictureSize: PixelSize(width: image.width, height: image.height), onto: canvas)
                }
            case .color(let color)?:
                let c = YCbCrMatrix.premultipliedBytes(color)
                draw(layer, ColorSampler(r: Int(c.r), g: Int(c.g), b: Int(c.b), a: Int(c.a)),
                     pictureSize: layer.placement.scaledPixelSize, onto: canvas)
            case .yuv?:
                preconditionFailure("a Y′CbCr picture on the general path")
            case nil:
                continue
            }
        }
    }

    /// Draws one layer: each output pixel centre is mapped back into the picture, sampled
    /// bilinearly (edges clamped) and weighted by its coverage of the cropped picture
    /// (anti-aliased edges, one output pixel wide), then composited "over" in integers.
    private static func draw<S: PictureSampler>(_ layer: PlannedLayer, _ source: S, pictureSize: PixelSize, onto canvas: RGBAImage) {
        let p = layer.placement
        let forward = p.affine(pictureSize: pictureSize)
        guard let inverse = forward.inverse else { return }
        let pw = Double(pictureSize.width), ph = Double(pictureSize.height)
        let u0 = p.cropLeft * pw, u1 = (1 - p.cropRight) * pw
        let v0 = p.cropTop * ph, v1 = (1 - p.cropBottom) * ph
        // Output pixels per picture pixel along each picture axis, for edge coverage.
        let su = (forward.a * forward.a + forward.c * forward.c).squareRoot()
        let sv = (forward.b * forward.b + forward.d * forward.d).squareRoot()
        let c00 = forward.apply(u0, v0), c10 = forward.apply(u1, v0), c01 = forward.apply(u0, v1), c11 = forward.apply(u1, v1)
        let minX = max(0, Int((min(c00.x, c10.x, c01.x, c11.x) - 1).rounded(.down)))
        let maxX = min(canvas.width, Int((max(c00.x, c10.x, c01.x, c11.x) + 1).rounded(.up)))
        let minY = max(0, Int((min(c00.y, c10.y, c01.y, c11.y) - 1).rounded(.down)))
        let maxY = min(canvas.height, Int((max(c00.y, c10.y, c01.y, c11.y) + 1).rounded(.up)))
        guard minX < maxX, minY < maxY else { return }
        let opacity = Double(layer.alpha)
        let pixels = canvas.pixels, stride = canvas.stride
        for y in minY..<maxY {
            let row = pixels + y * stride
            var (u, v) = inverse.apply(Double(minX) + 0.5, Double(y) + 0.5)
            for x in minX..<maxX {
                defer { u += inverse.a; v += inverse.c }
                let cu = min(max(min(u - u0, u1 - u) * su + 0.5, 0), 1)
                let cv = min(max(min(v - v0, v1 - v) * sv + 0.5, 0), 1)
                // Coverage × layer opacity, in 1/65536ths.
                let weight = Int(cu * cv * opacity * 256)
                guard weight > 0 else { continue }
                var (r, g, b, a) = source.sample(min(max(u, u0), u1), min(max(v, v0), v1))
                r = (r * weight + 32768) >> 16; g = (g * weight + 32768) >> 16
                b = (b * weight + 32768) >> 16; a = (a * weight + 32768) >> 16
                guard a > 0 else { continue }
                let px = row + x * 4, keep = 255 - a
                px[0] = UInt8(truncatingIfNeeded: r + (Int(px[0]) * keep + 127) / 255)
                px[1] = UInt8(truncatingIfNeeded: g + (Int(px[1]) * keep + 127) / 255)
                px[2] = UInt8(truncatingIfNeeded: b + (Int(px[2]) * keep + 127) / 255)
                px[3] = UInt8(truncatingIfNeeded: a + (Int(px[3]) * keep + 127) / 255)
            }
        }
    }

    /// Converts the canvas (premultiplied, shown over black) to 4:2:0: luma per pixel,
    /// chroma from the mean colour of each 2×2 block.
    static func convert(_ canvas: RGBAImage, matrix: YCbCrMatrix, into out: YUVFrame) {
        let (yp, ys) = out.plane(0), (up, cs) = out.plane(1), (vp, _) = out.plane(2)
        let pixels = canvas.pixels, stride = canvas.stride
        for cy in 0..<out.chromaHeight {
            for cx in 0..<out.chromaWidth {
                var r: Int32 = 0, g: Int32 = 0, b: Int32 = 0, n: Int32 = 0
                for dy in 0..<2 {
                    let y = 2 * cy + dy
                    guard y < out.height else { continue }
                    for dx in 0..<2 {
                        let x = 2 * cx + dx
                        guard x < out.width else { continue }
                        let px = pixels + y * stride + x * 4
                        let pr = Int32(px[0]), pg = Int32(px[1]), pb = Int32(px[2])
                        yp[y * ys + x] = UInt8(clamping: matrix.luma(pr, pg, pb) >> YCbCrMatrix.shift)
                        r += pr; g += pg; b += pb; n += 1
                    }
                }
                let mean = matrix.yuv(r: (r + n / 2) / n, g: (g + n / 2) / n, b: (b + n / 2) / n)
                up[cy * cs + cx] = mean.cb
                vp[cy * cs + cx] = mean.cr
            }
        }
    }
}

/// Premultiplied 8-bit RGBA at picture coordinates, for the general path's inner loop.
private protocol PictureSampler {
    func sample(_ u: Double, _ v: Double) -> (Int, Int, Int, Int)
}

private struct ColorSampler: PictureSampler {
    let r: Int, g: Int, b: Int, a: Int
    @inline(__always) func sample(_ u: Double, _ v: Double) -> (Int, Int, Int, Int) { (r, g, b, a) }
}

/// Bilinear sampling (pixel centres at +0.5, edges clamped) with 8-bit fixed-point weights.
/// Holds the image's memory unretained: the caller keeps the image alive.
private struct ImageSampler: PictureSampler {
    let pixels: UnsafeMutablePointer<UInt8>
    let width: Int, height: Int, stride: Int

    init(_ image: RGBAImage) {
        pixels = image.pixels
        width = image.width
        height = image.height
        stride = image.stride
    }

    @inline(__always) func sample(_ u: Double, _ v: Double) -> (Int, Int, Int, Int) {
        let x = min(max(u - 0.5, 0), Double(width - 1)), y = min(max(v - 0.5, 0), Double(height - 1))
        let x0 = Int(x), y0 = Int(y)
        let x1 = min(x0 + 1, width - 1), y1 = min(y0 + 1, height - 1)
        let fx = Int((x - Double(x0)) * 256), fy = Int((y - Double(y0)) * 256)
        let w00 = (256 - fx) * (256 - fy), w10 = fx * (256 - fy), w01 = (256 - fx) * fy, w11 = fx * fy
        let top = pixels + y0 * stride, bottom = pixels + y1 * stride
        let p00 = top + x0 * 4, p10 = top + x1 * 4, p01 = bottom + x0 * 4, p11 = bottom + x1 * 4
        @inline(__always) func channel(_ c: Int) -> Int {
            (Int(p00[c]) * w00 + Int(p10[c]) * w10 + Int(p01[c]) * w01 + Int(p11[c]) * w11 + 32768) >> 16
        }
        return (channel(0), channel(1), channel(2), channel(3))
    }
}
