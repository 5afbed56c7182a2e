/// A look that changes each pixel on its own (colour, LUT, key), in integers. It works in the
/// colour space natural to it; the drivers below convert pictures to and from it.
protocol PixelLook {
    /// Limited-range Y′CbCr (straight, not premultiplied) and alpha (0…255), changed in place.
    func apply(y: inout Int32, cb: inout Int32, cr: inout Int32, alpha: inout Int32)
}

/// BT.709 limited-range Y′CbCr → 8-bit R′G′B′ in 16.16 fixed point (the inverse of
/// `YCbCrMatrix.bt709`), for the looks that work in R′G′B′.
struct RGBFromYCbCr: Sendable {
    let ry: Int32, rcr: Int32, gcb: Int32, gcr: Int32, bcb: Int32

    init(kr: Double, kb: Double) {
        let one = 65536.0, kg = 1 - kr - kb
        ry = Int32((255.0 / 219.0 * one).rounded())
        rcr = Int32((255.0 / 224.0 * 2 * (1 - kr) * one).rounded())
        bcb = Int32((255.0 / 224.0 * 2 * (1 - kb) * one).rounded())
        gcb = Int32((-255.0 / 224.0 * 2 * (1 - kb) * kb / kg * one).rounded())
        gcr = Int32((-255.0 / 224.0 * 2 * (1 - kr) * kr / kg * one).rounded())
    }

    static let bt709 = RGBFromYCbCr(kr: 0.2126, kb: 0.0722)

    @inline(__always) func rgb(y: Int32, cb: Int32, cr: Int32) -> (r: Int32, g: Int32, b: Int32) {
        let l = ry &* (y &- 16) &+ 32768, u = cb &- 128, v = cr &- 128
        return (min(max((l &+ rcr &* v) >> 16, 0), 255), min(max((l &+ gcb &* u &+ gcr &* v) >> 16, 0), 255),
                min(max((l &+ bcb &* u) >> 16, 0), 255))
    }
}

enum PixelLooks {
    /// A new 4:2:0 picture: each pixel changed with its own luma and its 2×2 block's chroma;
    /// the block's new chroma is the mean of its pixels' (exact for the linear looks).
    /// Alpha the look makes is ignored: looks that make alpha run on R′G′B′A pictures. Only
    /// the 2×2 blocks of `region` are computed.
    static func apply(_ look: some PixelLook, to frame: YUVFrame, within region: PictureRegion) -> YUVFrame {
        let out = YUVFrame(width: frame.width, height: frame.height)
        let (ys, cs) = (frame.plane(0), frame.plane(1)), cr = frame.plane(2)
        let (oy, ocb, ocr) = (out.plane(0), out.plane(1), out.plane(2))
        let blocks = region.chroma
        for by in blocks.y0..<blocks.y1 {
            for bx in blocks.x0..<blocks.x1 {
                let u = Int32(cs.base[by * cs.stride + bx]), v = Int32(cr.base[by * cr.stride + bx])
                var sumU: Int32 = 0, sumV: Int32 = 0, count: Int32 = 0
                for dy in 0..<2 where 2 * by + dy < frame.height {
                    for dx in 0..<2 where 2 * bx + dx < frame.width {
                        let yOffset = (2 * by + dy) * ys.stride + 2 * bx + dx
                        var (y, pu, pv, a) = (Int32(ys.base[yOffset]), u, v, Int32(255))
                        look.apply(y: &y, cb: &pu, cr: &pv, alpha: &a)
                        oy.base[(2 * by + dy) * oy.stride + 2 * bx + dx] = UInt8(clamping: y)
                        sumU += pu; sumV += pv; count += 1
                    }
                }
                ocb.base[by * ocb.stride + bx] = UInt8(clamping: (sumU + count / 2) / count)
                ocr.base[by * ocr.stride + bx] = UInt8(clamping: (sumV + count / 2) / count)
            }
        }
        return out
    }

    /// A new premultiplied R′G′B′A picture: each pixel un-premultiplied, changed, its alpha
    /// multiplied by the alpha the look makes, premultiplied again. Only `region` is computed.
    static func apply(_ look: some PixelLook, to image: PremultipliedImage, within region: PictureRegion, matrix: YCbCrMatrix) -> PremultipliedImage {
        let out = PremultipliedImage(width: image.width, height: image.height)
        let toRGB = RGBFromYCbCr.bt709
        for row in region.y0..<region.y1 {
            let src = image.pixels + row * image.stride, dst = out.pixels + row * out.stride
            for x in region.x0..<region.x1 {
                let p = src + 4 * x, q = dst + 4 * x
                let a0 = Int32(p[3])
                guard a0 > 0 else { continue }
                func straight(_ c: UInt8) -> Int32 { min((Int32(c) * 255 + a0 / 2) / a0, 255) }
                let c = matrix.yuv(r: straight(p[0]), g: straight(p[1]), b: straight(p[2]))
                var (y, u, v, a) = (Int32(c.y), Int32(c.cb), Int32(c.cr), Int32(255))
                look.apply(y: &y, cb: &u, cr: &v, alpha: &a)
                let alpha = (a * a0 + 127) / 255
                let rgb = toRGB.rgb(y: y, cb: u, cr: v)
                q[0] = UInt8((rgb.r * alpha + 127) / 255); q[1] = UInt8((rgb.g * alpha + 127) / 255)
                q[2] = UInt8((rgb.b * alpha + 127) / 255); q[3] = UInt8(alpha)
            }
        }
        return out
    }
}
