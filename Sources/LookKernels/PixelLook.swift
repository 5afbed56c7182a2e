/// A look that changes each pixel on its own (colour, LUT, key), in integers. It works in
/// limited-range Y′CbCr; the drivers below convert pictures to and from it.
protocol PixelLook: PictureLook {
    /// Limited-range Y′CbCr (straight, not premultiplied) and alpha (0…255), changed in place.
    func apply(y: inout Int32, cb: inout Int32, cr: inout Int32, alpha: inout Int32)
}

extension PixelLook {
    var reach: Int { 0 }

    func apply(_ pixels: LookPixels, within region: PictureRegion) {
        switch pixels {
        case .yuv420(let source, let target, let width, let height):
            PixelLooks.apply(self, source, into: target, width: width, height: height, within: region)
        case .rgba(let source, let target, _, _):
            PixelLooks.apply(self, source, into: target, within: region)
        }
    }
}

enum PixelLooks {
    /// A 4:2:0 picture: each pixel changed with its own luma and its 2×2 block's chroma; the
    /// block's new chroma is the mean of its pixels' (exact for the linear looks). Alpha the
    /// look makes is ignored: looks that make alpha run on R′G′B′A pictures. Only the 2×2
    /// blocks of `region` are computed.
    static func apply(_ look: some PixelLook, _ source: [LookPixels.Plane], into target: [LookPixels.Plane], width: Int, height: Int,
                      within region: PictureRegion) {
        let (ys, cs, cr) = (source[0], source[1], source[2])
        let (oy, ocb, ocr) = (target[0], target[1], target[2])
        let blocks = region.chroma
        for by in blocks.y0..<blocks.y1 {
            for bx in blocks.x0..<blocks.x1 {
                let u = Int32(cs.base[by * cs.stride + bx]), v = Int32(cr.base[by * cr.stride + bx])
                var sumU: Int32 = 0, sumV: Int32 = 0, count: Int32 = 0
                for dy in 0..<2 where 2 * by + dy < height {
                    for dx in 0..<2 where 2 * bx + dx < width {
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
    }

    /// A premultiplied R′G′B′A picture: each pixel un-premultiplied, changed, its alpha
    /// multiplied by the alpha the look makes, premultiplied again. Only `region` is computed.
    static func apply(_ look: some PixelLook, _ source: LookPixels.Plane, into target: LookPixels.Plane, within region: PictureRegion) {
        let matrix = YCbCrMatrix.bt709, toRGB = RGBFromYCbCr.bt709
        for row in region.y0..<region.y1 {
            let src = source.base + row * source.stride, dst = target.base + row * target.stride
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
    }
}
