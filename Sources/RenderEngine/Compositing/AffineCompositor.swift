import CompositionGraph
import LookKernels

/// The general compositing path: layers drawn onto a premultiplied Y′CbCrA 4:4:4 canvas
/// through their full affine transform (rotation, mirroring, sub-pixel placement) with
/// bilinear sampling and anti-aliased edges, then reduced to 4:2:0 once. Pictures are sampled
/// in their own Y′CbCr (no RGB round trip); only pictures with an alpha channel arrive as
/// R′G′B′A, converted per sample. Used only for frames that need it.
enum AffineCompositor {
    /// Draws the plan on `canvas`; a crossfade's or a mixing transition's incoming layer is
    /// drawn on `scratch()` (a canvas of the same size), a copy of what lies beneath, and
    /// blended back (or mixed back by `mixer()`).
    static func composite(_ plan: FramePlan, pictures: [LayerPicture?], matrix: YCbCrMatrix, canvas: PremultipliedImage,
                          scratch: () -> PremultipliedImage, mixer: () -> TransitionMixer) {
        let b = matrix.premultipliedYCbCrA(YCbCrMatrix.premultipliedBytes(plan.background))
        canvas.fill((UInt8(b.y), UInt8(b.cb), UInt8(b.cr), UInt8(b.a)))
        let layers = plan.layers
        var i = 0
        while i < layers.count {
            if i + 1 < layers.count, let weight = layers[i + 1].dissolveWeight {
                // (1 − w)·(outgoing over canvas) + w·(incoming over canvas): premultiplied
                // samples mix byte by byte.
                let beneath = scratch()
                beneath.copy(from: canvas)
                draw(layers[i], pictures[i], matrix: matrix, onto: canvas)
                draw(layers[i + 1], pictures[i + 1], matrix: matrix, onto: beneath)
                PlaneKernels.blend(from: beneath.pixels, srcStride: beneath.stride, to: canvas.pixels, dstStride: canvas.stride,
                                   columns: canvas.width * 4, rows: canvas.height, alpha: weight)
                i += 2
            } else if i + 1 < layers.count, let mix = layers[i + 1].mix {
                if let outgoing = fillingFrame(layers[i], pictures[i], canvas), let incoming = fillingFrame(layers[i + 1], pictures[i + 1], canvas) {
                    // Both hide what lies beneath: the mix reads their frames, not copies of them.
                    mixer().mix(mix, outgoing: .frame(outgoing), incoming: .frame(incoming), into: canvas)
                } else {
                    let beneath = scratch()
                    beneath.copy(from: canvas)
                    draw(layers[i], pictures[i], matrix: matrix, onto: canvas)
                    draw(layers[i + 1], pictures[i + 1], matrix: matrix, onto: beneath)
                    mixer().mix(mix, outgoing: .canvas(canvas), incoming: .canvas(beneath), into: canvas)
                }
                i += 2
            } else {
                draw(layers[i], pictures[i], matrix: matrix, onto: canvas)
                i += 1
            }
        }
    }

    /// The layer's opaque Y′CbCr frame when `UnscaledCopy` would copy it onto the whole canvas.
    private static func fillingFrame(_ layer: PlannedLayer, _ picture: LayerPicture?, _ canvas: PremultipliedImage) -> YUVFrame? {
        guard case .yuv(let frame)? = picture, frame.width == canvas.width, frame.height == canvas.height,
              let origin = UnscaledCopy.origin(of: layer, pictureSize: PixelSize(width: frame.width, height: frame.height)),
              origin == (0, 0) else { return nil }
        return frame
    }

    private static func draw(_ layer: PlannedLayer, _ picture: LayerPicture?, matrix: YCbCrMatrix, onto canvas: PremultipliedImage) {
        guard let picture else { return }
        if case .masked(let shown, let coverage) = picture {
            precondition(coverage.width == canvas.width && coverage.height == canvas.height, "a mask covers the whole frame")
            coverage.bytes.withUnsafeBufferPointer { draw(layer, shown, matrix: matrix, mask: $0.baseAddress!, onto: canvas) }
        } else {
            draw(layer, picture, matrix: matrix, mask: nil, onto: canvas)
        }
    }

    private static func draw(_ layer: PlannedLayer, _ picture: LayerPicture, matrix: YCbCrMatrix, mask: UnsafePointer<UInt8>?,
                             onto canvas: PremultipliedImage) {
        switch picture {
        case .yuv(let frame):
            if mask == nil, let origin = UnscaledCopy.origin(of: layer, pictureSize: PixelSize(width: frame.width, height: frame.height)) {
                UnscaledCopy.copy(frame, originX: origin.x, originY: origin.y, onto: canvas)
                return
            }
            withExtendedLifetime(frame) {
                draw(layer, YCbCrSampler(frame), pictureSize: PixelSize(width: frame.width, height: frame.height), mask: mask, onto: canvas)
            }
        case .rgba(let image):
            withExtendedLifetime(image) {
                draw(layer, RGBASampler(image, matrix: matrix), pictureSize: PixelSize(width: image.width, height: image.height),
                     mask: mask, onto: canvas)
            }
        case .color(let color):
            let c = matrix.premultipliedYCbCrA(YCbCrMatrix.premultipliedBytes(color))
            draw(layer, ColorSampler(value: (c.y, c.cb, c.cr, c.a)), pictureSize: layer.placement.scaledPixelSize, mask: mask, onto: canvas)
        case .masked:
            preconditionFailure("a mask within a mask")
        }
    }

    /// Draws one layer: each output pixel centre is mapped back into the picture, sampled
    /// bilinearly (edges clamped) and weighted by its coverage of the cropped picture
    /// (anti-aliased edges, one output pixel wide) and by the mask's coverage of the output
    /// pixel (a canvas-sized plane), then composited "over" in integers.
    private static func draw<S: PictureSampler>(_ layer: PlannedLayer, _ source: S, pictureSize: PixelSize, mask: UnsafePointer<UInt8>?,
                                                onto canvas: PremultipliedImage) {
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
            let row = pixels + y * stride, maskRow = mask.map { $0 + y * canvas.width + minX }
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
                    let weight = maskRow.map { CoveragePlane.apply($0[k], to: fullWeight) } ?? fullWeight
                    guard weight > 0 else { continue }
                    let (r, g, b, a) = source.sample(u, v)
                    PremultipliedOver.blend(px, r, g, b, a, weight: weight)
                    continue
                }
                let cu = min(max(min(u - u0, u1 - u) * su + 0.5, 0), 1)
                let cv = min(max(min(v - v0, v1 - v) * sv + 0.5, 0), 1)
                // Coverage × layer opacity, in 1/65536ths.
                let edgeWeight = UInt32(cu * cv * opacity * 256)
                let weight = maskRow.map { CoveragePlane.apply($0[k], to: edgeWeight) } ?? edgeWeight
                guard weight > 0 else { continue }
                let (r, g, b, a) = source.sample(min(max(u, u0), u1), min(max(v, v0), v1))
                PremultipliedOver.blend(px, r, g, b, a, weight: weight)
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

    /// Reduces the canvas (premultiplied, shown over black) to 4:2:0: luma per pixel, chroma
    /// the mean of each 2×2 block. The output size is even.
    static func convert(_ canvas: PremultipliedImage, into out: YUVFrame) {
        precondition(out.width % 2 == 0 && out.height % 2 == 0, "4:2:0 output needs an even size")
        let (yp, ys) = out.plane(0), (up, cs) = out.plane(1), (vp, _) = out.plane(2)
        let pixels = canvas.pixels, stride = canvas.stride
        /// Pixel `p` over black (16, 128, 128): what shows through a pixel that is not opaque.
        @inline(__always) func overBlack(_ p: UnsafeMutablePointer<UInt8>) -> (y: UInt32, cb: UInt32, cr: UInt32) {
            let keep = 255 &- UInt32(p[3])
            guard keep > 0 else { return (UInt32(p[0]), UInt32(p[1]), UInt32(p[2])) }
            return (UInt32(p[0]) &+ (16 &* keep &+ 127) / 255, UInt32(p[1]) &+ (128 &* keep &+ 127) / 255,
                    UInt32(p[2]) &+ (128 &* keep &+ 127) / 255)
        }
        for cy in 0..<out.chromaHeight {
            let top = pixels + 2 * cy * stride, lumaTop = yp + 2 * cy * ys
            for cx in 0..<out.chromaWidth {
                let p00 = overBlack(top + 8 * cx), p10 = overBlack(top + 8 * cx + 4)
                let p01 = overBlack(top + stride + 8 * cx), p11 = overBlack(top + stride + 8 * cx + 4)
                lumaTop[2 * cx] = UInt8(truncatingIfNeeded: min(p00.y, 255)); lumaTop[2 * cx + 1] = UInt8(truncatingIfNeeded: min(p10.y, 255))
                lumaTop[ys + 2 * cx] = UInt8(truncatingIfNeeded: min(p01.y, 255)); lumaTop[ys + 2 * cx + 1] = UInt8(truncatingIfNeeded: min(p11.y, 255))
                up[cy * cs + cx] = UInt8(truncatingIfNeeded: min((p00.cb &+ p10.cb &+ p01.cb &+ p11.cb &+ 2) &>> 2, 255))
                vp[cy * cs + cx] = UInt8(truncatingIfNeeded: min((p00.cr &+ p10.cr &+ p01.cr &+ p11.cr &+ 2) &>> 2, 255))
            }
        }
    }
}

/// A picture's premultiplied Y′CbCrA (the canvas's channels) at picture coordinates, for the
/// general path's inner loop.
private protocol PictureSampler {
    func sample(_ u: Double, _ v: Double) -> (UInt32, UInt32, UInt32, UInt32)
}

private struct ColorSampler: PictureSampler {
    let value: (UInt32, UInt32, UInt32, UInt32)
    @inline(__always) func sample(_ u: Double, _ v: Double) -> (UInt32, UInt32, UInt32, UInt32) { value }
}

/// Bilinear sampling of one plane (pixel centres at +0.5, edges clamped) with 8-bit
/// fixed-point weights: where the four neighbours of (u, v) are and how much each counts.
private struct BilinearTaps {
    let p00: Int, p10: Int, p01: Int, p11: Int
    let w00: UInt32, w10: UInt32, w01: UInt32, w11: UInt32

    /// For a plane of `width × height` pixels of `bytesPerPixel`, rows `stride` bytes apart.
    @inline(__always) init(_ u: Double, _ v: Double, width: Int, height: Int, stride: Int, bytesPerPixel: Int) {
        let x = min(max(u - 0.5, 0), Double(width - 1)), y = min(max(v - 0.5, 0), Double(height - 1))
        let x0 = Int(x), y0 = Int(y)
        let x1 = min(x0 + 1, width - 1), y1 = min(y0 + 1, height - 1)
        let fx = UInt32((x - Double(x0)) * 256), fy = UInt32((y - Double(y0)) * 256)
        w00 = (256 &- fx) &* (256 &- fy); w10 = fx &* (256 &- fy); w01 = (256 &- fx) &* fy; w11 = fx &* fy
        p00 = y0 * stride + x0 * bytesPerPixel; p10 = y0 * stride + x1 * bytesPerPixel
        p01 = y1 * stride + x0 * bytesPerPixel; p11 = y1 * stride + x1 * bytesPerPixel
    }

    /// The interpolated value of the byte at `offset` within each pixel of `base`.
    @inline(__always) func value(_ base: UnsafeMutablePointer<UInt8>, _ offset: Int = 0) -> UInt32 {
        (UInt32(base[p00 + offset]) &* w00 &+ UInt32(base[p10 + offset]) &* w10 &+ UInt32(base[p01 + offset]) &* w01
            &+ UInt32(base[p11 + offset]) &* w11 &+ 32768) &>> 16
    }
}

/// An opaque Y′CbCr 4:2:0 picture: luma sampled at (u, v), chroma at (u, v) / 2 in its own
/// plane (chroma sited at the centre of each 2×2 block, as `convert` makes it).
/// Holds the frame's memory unretained: the caller keeps the frame alive.
private struct YCbCrSampler: PictureSampler {
    let y: UnsafeMutablePointer<UInt8>, cb: UnsafeMutablePointer<UInt8>, cr: UnsafeMutablePointer<UInt8>
    let width: Int, height: Int, chromaWidth: Int, chromaHeight: Int, yStride: Int, chromaStride: Int

    init(_ frame: YUVFrame) {
        y = frame.y; cb = frame.u; cr = frame.v
        width = frame.width; height = frame.height
        chromaWidth = frame.chromaWidth; chromaHeight = frame.chromaHeight
        yStride = frame.yStride; chromaStride = frame.chromaStride
    }

    @inline(__always) func sample(_ u: Double, _ v: Double) -> (UInt32, UInt32, UInt32, UInt32) {
        let luma = BilinearTaps(u, v, width: width, height: height, stride: yStride, bytesPerPixel: 1)
        let chroma = BilinearTaps(u * 0.5, v * 0.5, width: chromaWidth, height: chromaHeight, stride: chromaStride, bytesPerPixel: 1)
        return (luma.value(y), chroma.value(cb), chroma.value(cr), 255)
    }
}

/// A premultiplied R′G′B′A picture (a source with an alpha channel), converted to Y′CbCrA
/// sample by sample. Holds the image's memory unretained: the caller keeps the image alive.
private struct RGBASampler: PictureSampler {
    let pixels: UnsafeMutablePointer<UInt8>
    let width: Int, height: Int, stride: Int
    let matrix: YCbCrMatrix

    init(_ image: PremultipliedImage, matrix: YCbCrMatrix) {
        pixels = image.pixels
        width = image.width
        height = image.height
        stride = image.stride
        self.matrix = matrix
    }

    @inline(__always) func sample(_ u: Double, _ v: Double) -> (UInt32, UInt32, UInt32, UInt32) {
        let taps = BilinearTaps(u, v, width: width, height: height, stride: stride, bytesPerPixel: 4)
        let c = matrix.premultipliedYCbCrA((UInt8(taps.value(pixels, 0)), UInt8(taps.value(pixels, 1)),
                                            UInt8(taps.value(pixels, 2)), UInt8(taps.value(pixels, 3))))
        return (c.y, c.cb, c.cr, c.a)
    }
}
