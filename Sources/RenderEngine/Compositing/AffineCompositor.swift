import CompositionGraph

/// The general compositing path: layers drawn onto a premultiplied RGBA canvas through their
/// full affine transform (rotation, mirroring) with bilinear sampling and anti-aliased
/// edges, then converted to Y′CbCr 4:2:0 once. Used only for frames that need it.
enum AffineCompositor {
    static func composite(_ plan: FramePlan, pictures: [LayerPicture?], background: Color, canvas: RGBAImage) {
        canvas.fill(YCbCrMatrix.premultipliedBytes(background))
        for (layer, picture) in zip(plan.layers, pictures) {
            guard let picture else { continue }
            switch picture {
            case .rgba(let image):
                draw(layer, pictureSize: PixelSize(width: image.width, height: image.height), onto: canvas) { u, v in
                    bilinear(image, u, v)
                }
            case .color(let color):
                let c = YCbCrMatrix.premultipliedBytes(color)
                let rgba = (Double(c.r), Double(c.g), Double(c.b), Double(c.a))
                draw(layer, pictureSize: layer.placement.scaledPixelSize, onto: canvas) { _, _ in rgba }
            case .yuv:
                preconditionFailure("a Y′CbCr picture on the general path")
            }
        }
    }

    /// Draws one layer; `sample(u, v)` gives premultiplied RGBA at picture coordinates.
    private static func draw(_ layer: PlannedLayer, pictureSize: PixelSize, onto canvas: RGBAImage,
                             sample: (Double, Double) -> (Double, Double, Double, Double)) {
        let p = layer.placement
        let forward = p.affine(pictureSize: pictureSize)
        guard let inverse = forward.inverse else { return }
        let pw = Double(pictureSize.width), ph = Double(pictureSize.height)
        let u0 = p.cropLeft * pw, u1 = (1 - p.cropRight) * pw
        let v0 = p.cropTop * ph, v1 = (1 - p.cropBottom) * ph
        // Output pixels per picture pixel along each picture axis, for edge coverage.
        let su = (forward.a * forward.a + forward.c * forward.c).squareRoot()
        let sv = (forward.b * forward.b + forward.d * forward.d).squareRoot()
        let corners = [forward.apply(u0, v0), forward.apply(u1, v0), forward.apply(u0, v1), forward.apply(u1, v1)]
        let minX = max(0, Int((corners.map(\.x).min()! - 1).rounded(.down)))
        let maxX = min(canvas.width, Int((corners.map(\.x).max()! + 1).rounded(.up)))
        let minY = max(0, Int((corners.map(\.y).min()! - 1).rounded(.down)))
        let maxY = min(canvas.height, Int((corners.map(\.y).max()! + 1).rounded(.up)))
        guard minX < maxX, minY < maxY else { return }
        let opacity = Double(layer.alpha) / 256
        for y in minY..<maxY {
            let row = canvas.pixels + y * canvas.stride
            for x in minX..<maxX {
                let (u, v) = inverse.apply(Double(x) + 0.5, Double(y) + 0.5)
                let cu = min(max(min(u - u0, u1 - u) * su + 0.5, 0), 1)
                let cv = min(max(min(v - v0, v1 - v) * sv + 0.5, 0), 1)
                let coverage = cu * cv * opacity
                guard coverage > 0 else { continue }
                let s = sample(min(max(u, u0), u1), min(max(v, v0), v1))
                let sa = s.3 * coverage
                guard sa > 0 else { continue }
                let keep = 1 - sa / 255
                let px = row + x * 4
                px[0] = UInt8(clamping: Int((s.0 * coverage + Double(px[0]) * keep).rounded()))
                px[1] = UInt8(clamping: Int((s.1 * coverage + Double(px[1]) * keep).rounded()))
                px[2] = UInt8(clamping: Int((s.2 * coverage + Double(px[2]) * keep).rounded()))
                px[3] = UInt8(clamping: Int((sa + Double(px[3]) * keep).rounded()))
            }
        }
    }

    /// Premultiplied RGBA at picture coordinates (pixel centres at +0.5), edges clamped.
    private static func bilinear(_ image: RGBAImage, _ u: Double, _ v: Double) -> (Double, Double, Double, Double) {
        let x = min(max(u - 0.5, 0), Double(image.width - 1)), y = min(max(v - 0.5, 0), Double(image.height - 1))
        let x0 = Int(x), y0 = Int(y)
        let x1 = min(x0 + 1, image.width - 1), y1 = min(y0 + 1, image.height - 1)
        let fx = x - Double(x0), fy = y - Double(y0)
        let p00 = image.pixels + y0 * image.stride + x0 * 4, p10 = image.pixels + y0 * image.stride + x1 * 4
        let p01 = image.pixels + y1 * image.stride + x0 * 4, p11 = image.pixels + y1 * image.stride + x1 * 4
        func channel(_ c: Int) -> Double {
            let top = Double(p00[c]) * (1 - fx) + Double(p10[c]) * fx
            let bottom = Double(p01[c]) * (1 - fx) + Double(p11[c]) * fx
            return top * (1 - fy) + bottom * fy
        }
        return (channel(0), channel(1), channel(2), channel(3))
    }

    /// Converts the canvas (premultiplied, shown over black) to 4:2:0: luma per pixel,
    /// chroma from the mean colour of each 2×2 block.
    static func convert(_ canvas: RGBAImage, matrix: YCbCrMatrix, into out: YUVFrame) {
        let (yp, ys) = out.plane(0), (up, cs) = out.plane(1), (vp, _) = out.plane(2)
        for cy in 0..<out.chromaHeight {
            for cx in 0..<out.chromaWidth {
                var r: Int32 = 0, g: Int32 = 0, b: Int32 = 0, n: Int32 = 0
                for dy in 0..<2 {
                    let y = 2 * cy + dy
                    guard y < out.height else { continue }
                    for dx in 0..<2 {
                        let x = 2 * cx + dx
                        guard x < out.width else { continue }
                        let px = canvas.pixels + y * canvas.stride + x * 4
                        let pr = Int32(px[0]), pg = Int32(px[1]), pb = Int32(px[2])
                        yp[y * ys + x] = matrix.yuv(r: pr, g: pg, b: pb).y
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
