/// Turns the premultiplied Y′CbCrA 4:4:4 canvas into a frame that keeps its alpha
/// (`yuva420p`): straight alpha, as encoders and PNG files take it. Not thread-safe: one per
/// compositing thread (it keeps scratch sums of each 2×2 block).
///
/// Each pixel's alpha is its own and its luma is unpremultiplied, Y′ = Y′ₚ·255 / α. Each block's
/// chroma is the alpha-weighted mean of its pixels, C = ΣCₚ·255 / Σα, so a pixel that is barely
/// there counts barely: an anti-aliased edge of a white shape over nothing is white with partial
/// alpha, never grey, and a coloured edge keeps its hue. A block whose pixels add up to less
/// than one opaque pixel (Σα < 255) would get its chroma from the rounding of a few faint
/// pixels (α = 1 rounds any Cₚ to 0 or 1): it takes the weighted mean over its 3×3 blocks
/// instead. A pixel with nothing in it is black (luma 16) at alpha 0.
///
/// The empty blocks next to the picture take its chroma, two rings deep; the others are neutral
/// (128). Their colour is never seen, but converters interpolate chroma across blocks (to
/// R′G′B′, to ProRes 4:4:4) and encoders predict from it, and neutral or stray chroma there
/// would tint the edge pixels beside them. Integer maths, rounded to nearest.
final class AlphaFrameConverter {
    /// Per 2×2 block: Σα, ΣCbₚ, ΣCrₚ; then in `fillEmptyBlocks` ring marks.
    private var alphaSums: [UInt32] = []
    private var cbSums: [UInt32] = []
    private var crSums: [UInt32] = []

    /// Rings of empty blocks around the picture that get its chroma: two, the reach of a
    /// bicubic chroma upsampler (MediaIO's conversion to R′G′B′ and to 4:4:4).
    static let filledRings = 2
    /// Below this Σα (one opaque pixel) a block's chroma comes from its 3×3 blocks.
    static let faintBlock: UInt32 = 255

    func convert(_ canvas: PremultipliedImage, into out: YUVFrame) {
        precondition(out.width % 2 == 0 && out.height % 2 == 0, "4:2:0 output needs an even size")
        let blocks = out.chromaWidth * out.chromaHeight
        if alphaSums.count != blocks {
            alphaSums = [UInt32](repeating: 0, count: blocks)
            cbSums = alphaSums
            crSums = alphaSums
        }
        alphaSums.withUnsafeMutableBufferPointer { a in
            cbSums.withUnsafeMutableBufferPointer { cb in
                crSums.withUnsafeMutableBufferPointer { cr in
                    let sums = BlockSums(alpha: a.baseAddress!, cb: cb.baseAddress!, cr: cr.baseAddress!, columns: out.chromaWidth, rows: out.chromaHeight)
                    unpremultiplyLuma(canvas, into: out, sums: sums)
                    unpremultiplyChroma(of: out, sums: sums)
                    fillEmptyBlocks(of: out, marks: sums.alpha)
                }
            }
        }
    }

    private struct BlockSums {
        let alpha: UnsafeMutablePointer<UInt32>, cb: UnsafeMutablePointer<UInt32>, cr: UnsafeMutablePointer<UInt32>
        let columns: Int, rows: Int
    }

    /// Each pixel's straight luma and alpha; each block's sums.
    private func unpremultiplyLuma(_ canvas: PremultipliedImage, into out: YUVFrame, sums: BlockSums) {
        guard let ap = out.a else { preconditionFailure("a frame that keeps alpha needs an alpha plane") }
        let (yp, ys) = out.plane(0)
        let pixels = canvas.pixels, stride = canvas.stride
        for cy in 0..<sums.rows {
            for cx in 0..<sums.columns {
                var alpha: UInt32 = 0, cb: UInt32 = 0, cr: UInt32 = 0
                /// Pixel (2cx + dx, 2cy + dy): its luma and alpha, added to the block's sums.
                @inline(__always) func pixel(_ dx: Int, _ dy: Int) {
                    let p = pixels + (2 * cy + dy) * stride + 4 * (2 * cx + dx), offset = (2 * cy + dy) * ys + 2 * cx + dx
                    let a = UInt32(p[3])
                    ap[offset] = p[3]
                    yp[offset] = a == 0 ? 16 : UInt8(truncatingIfNeeded: min((UInt32(p[0]) &* 255 &+ a / 2) / a, 255))
                    alpha &+= a; cb &+= UInt32(p[1]); cr &+= UInt32(p[2])
                }
                pixel(0, 0); pixel(1, 0); pixel(0, 1); pixel(1, 1)
                let block = cy * sums.columns + cx
                sums.alpha[block] = alpha; sums.cb[block] = cb; sums.cr[block] = cr
            }
        }
    }

    /// Each block's straight chroma from its sums, or its 3×3 blocks' when it is faint.
    private func unpremultiplyChroma(of out: YUVFrame, sums: BlockSums) {
        let (up, cs) = out.plane(1), (vp, _) = out.plane(2)
        for cy in 0..<sums.rows {
            for cx in 0..<sums.columns {
                let block = cy * sums.columns + cx
                var alpha = sums.alpha[block], cb = sums.cb[block], cr = sums.cr[block]
                guard alpha > 0 else { continue }
                if alpha < Self.faintBlock {
                    (alpha, cb, cr) = (0, 0, 0)
                    for ny in max(0, cy - 1)...min(sums.rows - 1, cy + 1) {
                        for nx in max(0, cx - 1)...min(sums.columns - 1, cx + 1) {
                            let n = ny * sums.columns + nx
                            alpha &+= sums.alpha[n]; cb &+= sums.cb[n]; cr &+= sums.cr[n]
                        }
                    }
                }
                up[cy * cs + cx] = UInt8(truncatingIfNeeded: min((cb &* 255 &+ alpha / 2) / alpha, 255))
                vp[cy * cs + cx] = UInt8(truncatingIfNeeded: min((cr &* 255 &+ alpha / 2) / alpha, 255))
            }
        }
    }

    /// Gives each empty block (Σα = 0) within `filledRings` of the picture the chroma of its
    /// neighbours: ring 1 the alpha-weighted mean of its up to 8 neighbours with Σα > 0, ring r
    /// the mean of its neighbours in ring r − 1; the others are neutral (128). Filled blocks are
    /// marked in `marks` (the blocks' Σα) with 0x8000 + their ring, above any Σα (at most 1020).
    private func fillEmptyBlocks(of out: YUVFrame, marks: UnsafeMutablePointer<UInt32>) {
        let (up, cs) = out.plane(1), (vp, _) = out.plane(2)
        let columns = out.chromaWidth, rows = out.chromaHeight
        for ring in 1...Self.filledRings {
            let source = UInt32(0x8000 + ring - 1), mark = UInt32(0x8000 + ring)
            for cy in 0..<rows {
                for cx in 0..<columns where marks[cy * columns + cx] == 0 {
                    var weight: UInt32 = 0, cb: UInt32 = 0, cr: UInt32 = 0
                    for ny in max(0, cy - 1)...min(rows - 1, cy + 1) {
                        for nx in max(0, cx - 1)...min(columns - 1, cx + 1) {
                            let v = marks[ny * columns + nx]
                            let w: UInt32 = ring == 1 ? (v < 0x8000 ? v : 0) : (v == source ? 1 : 0)
                            guard w > 0 else { continue }
                            weight &+= w
                            cb &+= UInt32(up[ny * cs + nx]) &* w
                            cr &+= UInt32(vp[ny * cs + nx]) &* w
                        }
                    }
                    guard weight > 0 else {
                        if ring == Self.filledRings { up[cy * cs + cx] = 128; vp[cy * cs + cx] = 128 }
                        continue
                    }
                    up[cy * cs + cx] = UInt8(truncatingIfNeeded: (cb &+ weight / 2) / weight)
                    vp[cy * cs + cx] = UInt8(truncatingIfNeeded: (cr &+ weight / 2) / weight)
                    marks[cy * columns + cx] = mark
                }
            }
        }
    }
}
