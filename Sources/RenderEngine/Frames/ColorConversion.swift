import CompositionGraph

/// One Y′CbCr colour, 8 bits per component, limited (studio) range.
struct YUVColor: Hashable, Sendable {
    var y: UInt8
    var cb: UInt8
    var cr: UInt8

    init(y: UInt8, cb: UInt8, cr: UInt8) {
        self.y = y
        self.cb = cb
        self.cr = cr
    }
}

/// R′G′B′ → limited-range Y′CbCr in 16.16 fixed point, so every CPU gets the same bytes.
///
/// Reel writes BT.709 (and tags the output so): the matrix HD video uses, and the one the
/// reader converts every source into before compositing.
struct YCbCrMatrix: Sendable {
    static let shift = 16
    static let half: Int32 = 1 << 15
    let yr: Int32, yg: Int32, yb: Int32
    let ur: Int32, ug: Int32, ub: Int32
    let vr: Int32, vg: Int32, vb: Int32

    /// The matrix for luma weights `kr` and `kb`.
    init(kr: Double, kb: Double) {
        let one = Double(1 << Self.shift)
        let ys = 219.0 / 255.0 * one, cs = 224.0 / 255.0 * one
        yr = Int32((kr * ys).rounded())
        yb = Int32((kb * ys).rounded())
        yg = Int32(ys.rounded()) - yr - yb // the weights sum to exactly the luma scale
        ub = Int32((0.5 * cs).rounded())
        ur = Int32((-kr / (2 * (1 - kb)) * cs).rounded())
        ug = -ub - ur
        vr = ub
        vb = Int32((-kb / (2 * (1 - kr)) * cs).rounded())
        vg = -vr - vb
    }

    static let bt709 = YCbCrMatrix(kr: 0.2126, kb: 0.0722)

    /// The colour of 8-bit R′G′B′ values.
    func yuv(r: Int32, g: Int32, b: Int32) -> YUVColor {
        YUVColor(y: UInt8(clamping: luma(r, g, b) >> Self.shift),
                 cb: UInt8(clamping: (ur * r + ug * g + ub * b + (128 << Self.shift) + Self.half) >> Self.shift),
                 cr: UInt8(clamping: (vr * r + vg * g + vb * b + (128 << Self.shift) + Self.half) >> Self.shift))
    }

    /// Limited-range luma in 16.16 fixed point, rounding offset included.
    @inline(__always) func luma(_ r: Int32, _ g: Int32, _ b: Int32) -> Int32 {
        yr &* r &+ yg &* g &+ yb &* b &+ (16 << Self.shift) &+ Self.half
    }

    /// A graph colour (straight alpha) shown over black, as the output's Y′CbCr.
    func yuv(of color: Color) -> YUVColor {
        let rgb = Self.premultipliedBytes(color)
        return yuv(r: Int32(rgb.r), g: Int32(rgb.g), b: Int32(rgb.b))
    }

    /// Premultiplied 8-bit R′G′B′A as premultiplied Y′CbCrA: the standard's offsets (16 and
    /// 128) are premultiplied too, so every channel is unsigned and blending stays linear.
    func premultipliedYCbCrA(_ rgba: (r: UInt8, g: UInt8, b: UInt8, a: UInt8)) -> (y: UInt32, cb: UInt32, cr: UInt32, a: UInt32) {
        let r = Int64(rgba.r), g = Int64(rgba.g), b = Int64(rgba.b), a = Int64(rgba.a), shift = Int64(Self.shift)
        let half = Int64(Self.half)
        func channel(_ kr: Int32, _ kg: Int32, _ kb: Int32, offset: Int64) -> UInt32 {
            let value = (Int64(kr) * r + Int64(kg) * g + Int64(kb) * b + ((offset * a) << shift) / 255 + half) >> shift
            return UInt32(min(max(value, 0), 255))
        }
        return (channel(yr, yg, yb, offset: 16), channel(ur, ug, ub, offset: 128), channel(vr, vg, vb, offset: 128), UInt32(a))
    }

    /// 8-bit premultiplied R′G′B′A of a graph colour.
    static func premultipliedBytes(_ c: Color) -> (r: UInt8, g: UInt8, b: UInt8, a: UInt8) {
        func byte(_ v: Double) -> UInt8 { UInt8((min(max(v, 0), 1) * 255).rounded()) }
        let a = min(max(c.alpha, 0), 1)
        return (byte(c.red * a), byte(c.green * a), byte(c.blue * a), byte(a))
    }
}
