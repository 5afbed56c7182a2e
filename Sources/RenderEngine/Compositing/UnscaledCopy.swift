import CompositionGraph

/// The general path's shortcut for its most common layer: an opaque Y′CbCr picture drawn
/// whole, unscaled, unrotated and uncropped at whole pixels, at full opacity and unmasked (a
/// full-frame clip under a mixing transition). Such a layer covers each canvas pixel it
/// touches completely, so `AffineCompositor`'s loop would write each one as its sample at the
/// pixel's centre; this writes the same bytes row by row: luma as it is, chroma interpolated
/// with the same 8-bit weights (¼ and ¾ between neighbouring chroma samples, clamped at the
/// edges) and the same rounding as `YCbCrSampler`.
enum UnscaledCopy {
    /// Where the picture's top-left corner lands, when `layer` places it that simply.
    static func origin(of layer: PlannedLayer, pictureSize: PixelSize) -> (x: Int, y: Int)? {
        let p = layer.placement
        guard layer.alpha == 256, p.cropLeft == 0, p.cropTop == 0, p.cropRight == 0, p.cropBottom == 0 else { return nil }
        let f = p.affine(pictureSize: pictureSize)
        guard f.a == 1, f.b == 0, f.c == 0, f.d == 1, f.tx == f.tx.rounded(), f.ty == f.ty.rounded(),
              abs(f.tx) < 1e9, abs(f.ty) < 1e9 else { return nil }
        return (Int(f.tx), Int(f.ty))
    }

    /// Where picture row or column `p` (of `count` chroma samples along that axis) takes its
    /// chroma: the two samples and the second one's weight in 256ths, as bilinear sampling at
    /// the pixel's centre (p + ½) / 2 − ½ finds them.
    @inline(__always) static func chromaTaps(_ p: Int, count: Int) -> (first: Int, second: Int, weight: UInt32) {
        let half = p >> 1
        if p & 1 == 0 {
            return half == 0 ? (0, 0, 0) : (half - 1, half, 192)
        }
        return half >= count - 1 ? (count - 1, count - 1, 0) : (half, half + 1, 64)
    }

    static func copy(_ frame: YUVFrame, originX: Int, originY: Int, onto canvas: PremultipliedImage) {
        let x0 = max(0, originX), x1 = min(canvas.width, originX + frame.width)
        let y0 = max(0, originY), y1 = min(canvas.height, originY + frame.height)
        guard x0 < x1, y0 < y1 else { return }
        for y in y0..<y1 {
            let out = canvas.pixels + y * canvas.stride
            forEachPixel(ofRow: y - originY, of: frame, columns: x0 - originX..<x1 - originX) { px, luma, cb, cr in
                let o = out + 4 * (originX + px)
                o[0] = luma
                o[1] = cb
                o[2] = cr
                o[3] = 255
            }
        }
    }

    /// Calls `body` with each picture column of `columns` in picture row `py` and that pixel's
    /// luma and its chroma interpolated as `copy` writes them (the mixing transitions read a
    /// frame that fills the canvas this way, straight from the frame).
    @inline(__always) static func forEachPixel(ofRow py: Int, of frame: YUVFrame, columns: Range<Int>,
                                               _ body: (_ px: Int, _ luma: UInt8, _ cb: UInt8, _ cr: UInt8) -> Void) {
        let chromaStride = frame.chromaStride
        let rows = chromaTaps(py, count: frame.chromaHeight)
        let fy = rows.weight, gy = 256 &- fy
        let luma = frame.y + py * frame.yStride
        let cbTop = frame.u + rows.first * chromaStride, cbBottom = frame.u + rows.second * chromaStride
        let crTop = frame.v + rows.first * chromaStride, crBottom = frame.v + rows.second * chromaStride
        for px in columns {
            let taps = chromaTaps(px, count: frame.chromaWidth)
            let fx = taps.weight, gx = 256 &- fx
            let i = taps.first, j = taps.second
            @inline(__always) func mixed(_ top: UnsafeMutablePointer<UInt8>, _ bottom: UnsafeMutablePointer<UInt8>) -> UInt8 {
                let upper = UInt32(top[i]) &* gx &+ UInt32(top[j]) &* fx
                let lower = UInt32(bottom[i]) &* gx &+ UInt32(bottom[j]) &* fx
                return UInt8(truncatingIfNeeded: (upper &* gy &+ lower &* fy &+ 32768) &>> 16)
            }
            body(px, luma[px], mixed(cbTop, cbBottom), mixed(crTop, crBottom))
        }
    }
}
