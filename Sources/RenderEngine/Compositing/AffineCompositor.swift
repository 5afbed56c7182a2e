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
                draw(layer, ColorSampler(r: UInt32(c.r), g: UInt32(c.g), b: UInt32(c.b), a: UInt32(c.a)),
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
        let pixels = canvas.pixels, stride = canvas.stride, count = maxX - minX
        // Pixels whose centre maps at least this far inside the crop rectangle are fully
        // covered (coverage exactly 1), a little more than the half pixel the coverage ramp takes.
        let insideU = 0.5 / su + 1e-6, insideV = 0.5 / sv + 1e-6
        let fullWeight = UInt32(opacity * 256)
        for y in minY..<maxY {
            let row = pixels + y * stride
            var (u, v) = inverse.apply(Double(minX) + 0.5, Double(y) + 0.5)
            // Along the row u and v are linear in x: the pixels that can be covered at all,
            // and those surely fully covered, found by solving for x (with a pixel to spare,
            // since u and v are stepped by addition below, exactly as before this shortcut).
            let reach = steps(from: u, by: inverse.a, within: u0 - 0.5 / su, u1 + 0.5 / su, count: count)
                .clamped(to: steps(from: v, by: inverse.c, within: v0 - 0.5 / sv, v1 + 0.5 / sv, count: count))
            let covered = reach.isEmpty ? 0..<0 : max(0, reach.lowerBound - 1)..<min(count, reach.upperBound + 1)
            let inside = steps(from: u, by: inverse.a, within: u0 + insideU, u1 - insideU, count: count)
                .clamped(to: steps(from: v, by: inverse.c, within: v0 + insideV, v1 - insideV, count: count))
            let full = inside.count > 2 ? inside.lowerBound + 1..<inside.upperBound - 1 : 0..<0
            for k in 0..<count {
                defer { u += inverse.a; v += inverse.c }
                guard covered.contains(k) else { continue }
                let px = row + (minX + k) * 4
                if full.contains(k) {
                    let (r, g, b, a) = source.sample(u, v)
                    over(px, r, g, b, a, weight: fullWeight)
                    continue
                }
                let cu = min(max(min(u - u0, u1 - u) * su + 0.5, 0), 1)
                let cv = min(max(min(v - v0, v1 - v) * sv + 0.5, 0), 1)
                // Coverage × layer opacity, in 1/65536ths.
                let weight = UInt32(cu * cv * opacity * 256)
                guard weight > 0 else { continue }
                let (r, g, b, a) = source.sample(min(max(u, u0), u1), min(max(v, v0), v1))
                over(px, r, g, b, a, weight: weight)
            }
        }
    }

    /// The steps k in 0..<count at which `start + k × step` lies in [lower, upper]
    /// (a real-valued bound: callers widen or narrow it by a step for rounding).
    private static func steps(from start: Double, by step: Double, within lower: Double, _ upper: Double, count: Int) -> Range<Int> {
        guard lower <= upper else { return 0..<0 }
        guard step != 0 else { return (lower...upper).contains(start) ? 0..<count : 0..<0 }
        let k1 = (lower - start) / step, k2 = (upper - start) / step
        let first = max(0, min(k1, k2).rounded(.up)), last = min(Double(count - 1), max(k1, k2).rounded(.down))
        return first <= last ? Int(first)..<Int(last) + 1 : 0..<0
    }

    /// Composites premultiplied (r, g, b, a) weighted by `weight` (1/65536ths) "over" the
    /// canvas pixel at `px`, in integers. Wrapping unsigned arithmetic: nothing here can
    /// overflow, and the compiler then drops overflow checks and turns the divisions by 255
    /// into multiplies.
    @inline(__always)
    private static func over(_ px: UnsafeMutablePointer<UInt8>, _ r: UInt32, _ g: UInt32, _ b: UInt32, _ a: UInt32, weight: UInt32) {
        var (r, g, b, a) = (r, g, b, a)
        if weight != 65536 { // at full weight each product rounds back to the value itself
            r = (r &* weight &+ 32768) &>> 16; g = (g &* weight &+ 32768) &>> 16
            b = (b &* weight &+ 32768) &>> 16; a = (a &* weight &+ 32768) &>> 16
        }
        guard a > 0 else { return }
        guard a < 255 else { // nothing of the canvas shows through
            px[0] = UInt8(truncatingIfNeeded: r); px[1] = UInt8(truncatingIfNeeded: g)
            px[2] = UInt8(truncatingIfNeeded: b); px[3] = 255
            return
        }
        let keep = 255 &- a
        px[0] = UInt8(truncatingIfNeeded: r &+ (UInt32(px[0]) &* keep &+ 127) / 255)
        px[1] = UInt8(truncatingIfNeeded: g &+ (UInt32(px[1]) &* keep &+ 127) / 255)
        px[2] = UInt8(truncatingIfNeeded: b &+ (UInt32(px[2]) &* keep &+ 127) / 255)
        px[3] = UInt8(truncatingIfNeeded: a &+ (UInt32(px[3]) &* keep &+ 127) / 255)
    }

    /// Converts the canvas (premultiplied, shown over black) to 4:2:0: luma per pixel,
    /// chroma from the mean colour of each 2×2 block (of the pixels inside the frame, when a
    /// side is odd).
    static func convert(_ canvas: RGBAImage, matrix m: YCbCrMatrix, into out: YUVFrame) {
        let (yp, ys) = out.plane(0), (up, cs) = out.plane(1), (vp, _) = out.plane(2)
        let pixels = canvas.pixels, stride = canvas.stride
        let shift = Int32(YCbCrMatrix.shift), chromaOffset = (128 << shift) + YCbCrMatrix.half
        // Wrapping arithmetic: the sums stay far inside Int32, so no overflow checks are needed.
        @inline(__always) func luma(_ px: UnsafeMutablePointer<UInt8>) -> UInt8 {
            UInt8(clamping: m.luma(Int32(px[0]), Int32(px[1]), Int32(px[2])) &>> shift)
        }
        for cy in 0..<out.chromaHeight {
            let y0 = 2 * cy, rows = min(2, out.height - y0)
            for cx in 0..<out.chromaWidth {
                let x0 = 2 * cx, columns = min(2, out.width - x0)
                var r: Int32 = 0, g: Int32 = 0, b: Int32 = 0
                for dy in 0..<rows {
                    let px = pixels + (y0 + dy) * stride + x0 * 4, lumaRow = yp + (y0 + dy) * ys + x0
                    for dx in 0..<columns {
                        let p = px + 4 * dx
                        lumaRow[dx] = luma(p)
                        r &+= Int32(p[0]); g &+= Int32(p[1]); b &+= Int32(p[2])
                    }
                }
                let n = Int32(rows * columns)
                r = (r &+ n / 2) / n; g = (g &+ n / 2) / n; b = (b &+ n / 2) / n
                up[cy * cs + cx] = UInt8(clamping: (m.ur &* r &+ m.ug &* g &+ m.ub &* b &+ chromaOffset) &>> shift)
                vp[cy * cs + cx] = UInt8(clamping: (m.vr &* r &+ m.vg &* g &+ m.vb &* b &+ chromaOffset) &>> shift)
            }
        }
    }
}

/// Premultiplied 8-bit RGBA at picture coordinates, for the general path's inner loop.
private protocol PictureSampler {
    func sample(_ u: Double, _ v: Double) -> (UInt32, UInt32, UInt32, UInt32)
}

private struct ColorSampler: PictureSampler {
    let r: UInt32, g: UInt32, b: UInt32, a: UInt32
    @inline(__always) func sample(_ u: Double, _ v: Double) -> (UInt32, UInt32, UInt32, UInt32) { (r, g, b, a) }
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

    @inline(__always) func sample(_ u: Double, _ v: Double) -> (UInt32, UInt32, UInt32, UInt32) {
        let x = min(max(u - 0.5, 0), Double(width - 1)), y = min(max(v - 0.5, 0), Double(height - 1))
        let x0 = Int(x), y0 = Int(y)
        let x1 = min(x0 + 1, width - 1), y1 = min(y0 + 1, height - 1)
        let fx = UInt32((x - Double(x0)) * 256), fy = UInt32((y - Double(y0)) * 256)
        let w00 = (256 &- fx) &* (256 &- fy), w10 = fx &* (256 &- fy), w01 = (256 &- fx) &* fy, w11 = fx &* fy
        let top = pixels + y0 * stride, bottom = pixels + y1 * stride
        let p00 = top + x0 * 4, p10 = top + x1 * 4, p01 = bottom + x0 * 4, p11 = bottom + x1 * 4
        @inline(__always) func channel(_ c: Int) -> UInt32 {
            (UInt32(p00[c]) &* w00 &+ UInt32(p10[c]) &* w10 &+ UInt32(p01[c]) &* w01 &+ UInt32(p11[c]) &* w11 &+ 32768) &>> 16
        }
        return (channel(0), channel(1), channel(2), channel(3))
    }
}
