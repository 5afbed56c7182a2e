/// Turns the premultiplied Y′CbCrA 4:4:4 canvas into a frame that keeps its alpha
/// (`yuva420p`): straight alpha, as encoders and PNG files take it. Not thread-safe: one per
/// compositing thread (it keeps a scratch row of block alphas).
///
/// Each pixel's alpha is its own and its luma is unpremultiplied, Y′ = Y′ₚ·255 / α; each 2×2
/// block's chroma is the alpha-weighted mean of its four pixels, C = ΣCₚ·255 / Σα, so a pixel
/// that is barely there counts barely: an anti-aliased edge of a white shape over nothing is
/// white with partial alpha, never grey, and a coloured edge keeps its hue. A pixel with
/// nothing in it is black (luma 16) at alpha 0.
///
/// A block with nothing in it takes the alpha-weighted mean chroma of its neighbours that have
/// something (else neutral, 128): its colour is never seen, but decoders interpolate chroma
/// between blocks (to R′G′B′, to ProRes 4:4:4) and encoders predict from it, and neutral chroma
/// there would grey the edge pixels beside it. Integer maths, rounded to nearest.
final class AlphaFrameConverter {
    /// Σα of each 2×2 block of the frame being converted.
    private var blockAlpha: [UInt16] = []

    func convert(_ canvas: PremultipliedImage, into out: YUVFrame) {
        precondition(out.width % 2 == 0 && out.height % 2 == 0, "4:2:0 output needs an even size")
        let columns = out.chromaWidth, rows = out.chromaHeight
        if blockAlpha.count != columns * rows { blockAlpha = [UInt16](repeating: 0, count: columns * rows) }
        blockAlpha.withUnsafeMutableBufferPointer { sums in
            unpremultiply(canvas, into: out, blockAlpha: sums.baseAddress!)
            fillEmptyBlocks(of: out, blockAlpha: sums.baseAddress!)
        }
    }

    private func unpremultiply(_ canvas: PremultipliedImage, into out: YUVFrame, blockAlpha: UnsafeMutablePointer<UInt16>) {
        guard let ap = out.a else { preconditionFailure("a frame that keeps alpha needs an alpha plane") }
        let (yp, ys) = out.plane(0), (up, cs) = out.plane(1), (vp, _) = out.plane(2)
        let pixels = canvas.pixels, stride = canvas.stride
        /// Writes pixel `p`'s straight luma and its alpha at `offset` in the luma and alpha planes.
        @inline(__always) func lumaAndAlpha(_ p: UnsafeMutablePointer<UInt8>, _ offset: Int) {
            let a = UInt32(p[3])
            ap[offset] = p[3]
            yp[offset] = a == 0 ? 16 : UInt8(truncatingIfNeeded: min((UInt32(p[0]) &* 255 &+ a / 2) / a, 255))
        }
        for cy in 0..<out.chromaHeight {
            let top = pixels + 2 * cy * stride, bottom = top + stride
            for cx in 0..<out.chromaWidth {
                let p00 = top + 8 * cx, p10 = p00 + 4, p01 = bottom + 8 * cx, p11 = p01 + 4
                let luma = 2 * cy * ys + 2 * cx
                lumaAndAlpha(p00, luma); lumaAndAlpha(p10, luma + 1)
                lumaAndAlpha(p01, luma + ys); lumaAndAlpha(p11, luma + ys + 1)
                let alpha = UInt32(p00[3]) &+ UInt32(p10[3]) &+ UInt32(p01[3]) &+ UInt32(p11[3])
                blockAlpha[cy * out.chromaWidth + cx] = UInt16(truncatingIfNeeded: alpha)
                guard alpha > 0 else { continue }
                let cb = UInt32(p00[1]) &+ UInt32(p10[1]) &+ UInt32(p01[1]) &+ UInt32(p11[1])
                let cr = UInt32(p00[2]) &+ UInt32(p10[2]) &+ UInt32(p01[2]) &+ UInt32(p11[2])
                up[cy * cs + cx] = UInt8(truncatingIfNeeded: min((cb &* 255 &+ alpha / 2) / alpha, 255))
                vp[cy * cs + cx] = UInt8(truncatingIfNeeded: min((cr &* 255 &+ alpha / 2) / alpha, 255))
            }
        }
    }

    /// Gives each block with Σα = 0 the alpha-weighted mean chroma of its up to 8 neighbours
    /// with Σα > 0 (whose chroma is final), or 128.
    private func fillEmptyBlocks(of out: YUVFrame, blockAlpha: UnsafeMutablePointer<UInt16>) {
        let (up, cs) = out.plane(1), (vp, _) = out.plane(2)
        let columns = out.chromaWidth, rows = out.chromaHeight
        for cy in 0..<rows {
            for cx in 0..<columns where blockAlpha[cy * columns + cx] == 0 {
                var weight: UInt32 = 0, cb: UInt32 = 0, cr: UInt32 = 0
                for ny in max(0, cy - 1)...min(rows - 1, cy + 1) {
                    for nx in max(0, cx - 1)...min(columns - 1, cx + 1) {
                        let w = UInt32(blockAlpha[ny * columns + nx])
                        guard w > 0 else { continue }
                        weight &+= w
                        cb &+= UInt32(up[ny * cs + nx]) &* w
                        cr &+= UInt32(vp[ny * cs + nx]) &* w
                    }
                }
                up[cy * cs + cx] = weight == 0 ? 128 : UInt8(truncatingIfNeeded: (cb &+ weight / 2) / weight)
                vp[cy * cs + cx] = weight == 0 ? 128 : UInt8(truncatingIfNeeded: (cr &+ weight / 2) / weight)
            }
        }
    }
}
