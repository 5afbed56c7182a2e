import Looks
import LUTFiles

extension LookKernel {
    /// `Look.lut`'s pixels.
    static let lut = LookKernel(.lut) { settings in
        LUTKernel(lut: settings.lut("file"), intensity: settings.number("intensity"))
    }
}

/// A `.cube` LUT ready to map 8-bit R′G′B′: for each input level, the lattice cell and the
/// position in it (16-bit fraction), then tetrahedral interpolation (as FFmpeg's `lut3d`
/// `interp=tetrahedral`, its default) in integers.
public final class PreparedLUT: Sendable {
    let size: Int
    /// (r, g, b) per lattice point in 1/256ths of a level, red index fastest.
    private let entries: [Int32]
    /// Per channel and input level: lower lattice index and fraction towards the next (of 65536).
    private let cells: [[(index: Int, fraction: Int64)]]

    public init(_ lut: CubeLUT) {
        size = lut.size
        entries = lut.entries
        cells = (0..<3).map { c in
            (0..<256).map { level in
                let scaled = (Double(level) / 255 - lut.domainMin[c]) / (lut.domainMax[c] - lut.domainMin[c]) * Double(lut.size - 1)
                let position = Int64((min(max(scaled, 0), Double(lut.size - 1)) * 65536).rounded())
                let index = min(Int(position >> 16), lut.size - 2)
                return (index, position - Int64(index) << 16)
            }
        }
    }

    /// The LUT's output for 8-bit R′G′B′, in 1/256ths of a level (unclamped).
    @inline(__always) func map(r: Int, g: Int, b: Int) -> (Int64, Int64, Int64) {
        let cr = cells[0][r], cg = cells[1][g], cb = cells[2][b]
        let n = size, base = (cb.index * n + cg.index) * n + cr.index
        let sr = 1, sg = n, sb = n * n
        let dr = cr.fraction, dg = cg.fraction, db = cb.fraction
        let one: Int64 = 65536
        // The tetrahedron of the cube holding the point: from c000 to c111 through the two
        // corners that step first along the largest fraction, then the next.
        let (first, second, w0, w1, w2, w3): (Int, Int, Int64, Int64, Int64, Int64)
        if dr > dg {
            if dg > db { (first, second, w0, w1, w2, w3) = (sr, sr + sg, one - dr, dr - dg, dg - db, db) }
            else if dr > db { (first, second, w0, w1, w2, w3) = (sr, sr + sb, one - dr, dr - db, db - dg, dg) }
            else { (first, second, w0, w1, w2, w3) = (sb, sr + sb, one - db, db - dr, dr - dg, dg) }
        } else {
            if db > dg { (first, second, w0, w1, w2, w3) = (sb, sg + sb, one - db, db - dg, dg - dr, dr) }
            else if db > dr { (first, second, w0, w1, w2, w3) = (sg, sg + sb, one - dg, dg - db, db - dr, dr) }
            else { (first, second, w0, w1, w2, w3) = (sg, sr + sg, one - dg, dg - dr, dr - db, db) }
        }
        let p0 = 3 * base, p1 = 3 * (base + first), p2 = 3 * (base + second), p3 = 3 * (base + sr + sg + sb)
        func channel(_ c: Int) -> Int64 {
            (Int64(entries[p0 + c]) * w0 + Int64(entries[p1 + c]) * w1 + Int64(entries[p2 + c]) * w2 + Int64(entries[p3 + c]) * w3 + 32768) >> 16
        }
        return (channel(0), channel(1), channel(2))
    }

    /// 8-bit R′G′B′ through the LUT, mixed with the input by `intensity` (of 256), rounded.
    @inline(__always) func apply(r: Int32, g: Int32, b: Int32, intensity: Int64) -> (Int32, Int32, Int32) {
        let (lr, lg, lb) = map(r: Int(r), g: Int(g), b: Int(b))
        func mix(_ input: Int32, _ mapped: Int64) -> Int32 {
            let v = (Int64(input) * 256 * (256 - intensity) + mapped * intensity + 32768) >> 16
            return Int32(min(max(v, 0), 255))
        }
        return (mix(r, lr), mix(g, lg), mix(b, lb))
    }
}

/// `{ type: lut }` at one instant: Y′CbCr to R′G′B′, the LUT, back.
struct LUTKernel: PixelLook {
    let lut: PreparedLUT
    let intensity: Int64
    let matrix = YCbCrMatrix.bt709

    init(lut: PreparedLUT, intensity: Double) {
        self.lut = lut
        self.intensity = Int64((min(max(intensity, 0), 1) * 256).rounded())
    }

    @inline(__always) func apply(y: inout Int32, cb: inout Int32, cr: inout Int32, alpha: inout Int32) {
        let rgb = RGBFromYCbCr.bt709.rgb(y: y, cb: cb, cr: cr)
        let (r, g, b) = lut.apply(r: rgb.r, g: rgb.g, b: rgb.b, intensity: intensity)
        let c = matrix.yuv(r: r, g: g, b: b)
        (y, cb, cr) = (Int32(c.y), Int32(c.cb), Int32(c.cr))
    }
}
