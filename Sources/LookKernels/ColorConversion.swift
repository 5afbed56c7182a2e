/// One Y′CbCr colour, 8 bits per component, limited (studio) range.
public struct YUVColor: Hashable, Sendable {
    public var y: UInt8
    public var cb: UInt8
    public var cr: UInt8

    @inlinable public init(y: UInt8, cb: UInt8, cr: UInt8) {
        self.y = y
        self.cb = cb
        self.cr = cr
    }
}

/// R′G′B′ → limited-range Y′CbCr in 16.16 fixed point, so every CPU gets the same bytes.
///
/// Reel writes BT.709 (and tags the output so): the matrix HD video uses, and the one the
/// reader converts every source into before compositing. The compositor converts with it
/// per pixel, hence `@inlinable`.
public struct YCbCrMatrix: Sendable {
    @usableFromInline static let shift = 16
    @usableFromInline static let half: Int32 = 1 << 15
    public let yr: Int32, yg: Int32, yb: Int32
    public let ur: Int32, ug: Int32, ub: Int32
    public let vr: Int32, vg: Int32, vb: Int32

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

    public static let bt709 = YCbCrMatrix(kr: 0.2126, kb: 0.0722)

    /// The colour of 8-bit R′G′B′ values.
    @inlinable public func yuv(r: Int32, g: Int32, b: Int32) -> YUVColor {
        YUVColor(y: UInt8(clamping: luma(r, g, b) >> Self.shift),
                 cb: UInt8(clamping: (ur * r + ug * g + ub * b + (128 << Self.shift) + Self.half) >> Self.shift),
                 cr: UInt8(clamping: (vr * r + vg * g + vb * b + (128 << Self.shift) + Self.half) >> Self.shift))
    }

    /// Limited-range luma in 16.16 fixed point, rounding offset included.
    @inlinable @inline(__always) public func luma(_ r: Int32, _ g: Int32, _ b: Int32) -> Int32 {
        yr &* r &+ yg &* g &+ yb &* b &+ (16 << Self.shift) &+ Self.half
    }

    /// Premultiplied 8-bit R′G′B′A as premultiplied Y′CbCrA: the standard's offsets (16 and
    /// 128) are premultiplied too, so every channel is unsigned and blending stays linear.
    @inlinable public func premultipliedYCbCrA(_ rgba: (r: UInt8, g: UInt8, b: UInt8, a: UInt8)) -> (y: UInt32, cb: UInt32, cr: UInt32, a: UInt32) {
        let r = Int64(rgba.r), g = Int64(rgba.g), b = Int64(rgba.b), a = Int64(rgba.a), shift = Int64(Self.shift)
        let half = Int64(Self.half)
        func channel(_ kr: Int32, _ kg: Int32, _ kb: Int32, offset: Int64) -> UInt32 {
            let value = (Int64(kr) * r + Int64(kg) * g + Int64(kb) * b + ((offset * a) << shift) / 255 + half) >> shift
            return UInt32(min(max(value, 0), 255))
        }
        return (channel(yr, yg, yb, offset: 16), channel(ur, ug, ub, offset: 128), channel(vr, vg, vb, offset: 128), UInt32(a))
    }
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
