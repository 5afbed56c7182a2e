/// Row operations on 8-bit sample planes, in integers (the same bytes on every CPU).
/// `alpha` is in 1/256ths: 0 keeps the destination, 256 replaces it.
enum PlaneKernels {
    static func copy(from src: UnsafePointer<UInt8>, srcStride: Int, to dst: UnsafeMutablePointer<UInt8>, dstStride: Int,
                     columns: Int, rows: Int) {
        for r in 0..<rows { (dst + r * dstStride).update(from: src + r * srcStride, count: columns) }
    }

    static func blend(from src: UnsafePointer<UInt8>, srcStride: Int, to dst: UnsafeMutablePointer<UInt8>, dstStride: Int,
                      columns: Int, rows: Int, alpha: Int) {
        let a = Int32(alpha)
        for r in 0..<rows {
            let s = src + r * srcStride, d = dst + r * dstStride
            for i in 0..<columns {
                let dv = Int32(d[i])
                d[i] = UInt8(truncatingIfNeeded: dv + (((Int32(s[i]) - dv) * a + 128) >> 8))
            }
        }
    }

    static func fill(_ value: UInt8, to dst: UnsafeMutablePointer<UInt8>, dstStride: Int, columns: Int, rows: Int) {
        for r in 0..<rows { (dst + r * dstStride).update(repeating: value, count: columns) }
    }

    static func blend(_ value: UInt8, to dst: UnsafeMutablePointer<UInt8>, dstStride: Int, columns: Int, rows: Int, alpha: Int) {
        let a = Int32(alpha), v = Int32(value)
        for r in 0..<rows {
            let d = dst + r * dstStride
            for i in 0..<columns {
                let dv = Int32(d[i])
                d[i] = UInt8(truncatingIfNeeded: dv + (((v - dv) * a + 128) >> 8))
            }
        }
    }
}
