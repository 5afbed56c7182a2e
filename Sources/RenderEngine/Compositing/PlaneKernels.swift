/// Row operations on 8-bit sample planes, in integers (the same bytes on every CPU).
/// `alpha` is in 1/256ths: 0 keeps the destination, 256 replaces it; a blend is
/// `(s·α + d·(256 − α) + 128) >> 8`, which fits 16 bits, so the loops vectorise.
enum PlaneKernels {
    static func copy(from src: UnsafePointer<UInt8>, srcStride: Int, to dst: UnsafeMutablePointer<UInt8>, dstStride: Int,
                     columns: Int, rows: Int) {
        for r in 0..<rows { (dst + r * dstStride).update(from: src + r * srcStride, count: columns) }
    }

    static func blend(from src: UnsafePointer<UInt8>, srcStride: Int, to dst: UnsafeMutablePointer<UInt8>, dstStride: Int,
                      columns: Int, rows: Int, alpha: Int) {
        let a = UInt16(alpha), keep = UInt16(256 - alpha)
        for r in 0..<rows {
            let s = src + r * srcStride, d = dst + r * dstStride
            for i in 0..<columns {
                d[i] = UInt8(truncatingIfNeeded: (UInt16(s[i]) &* a &+ UInt16(d[i]) &* keep &+ 128) &>> 8)
            }
        }
    }

    static func fill(_ value: UInt8, to dst: UnsafeMutablePointer<UInt8>, dstStride: Int, columns: Int, rows: Int) {
        for r in 0..<rows { (dst + r * dstStride).update(repeating: value, count: columns) }
    }

    static func blend(_ value: UInt8, to dst: UnsafeMutablePointer<UInt8>, dstStride: Int, columns: Int, rows: Int, alpha: Int) {
        let keep = UInt16(256 - alpha), add = UInt16(value) &* UInt16(alpha) &+ 128
        for r in 0..<rows {
            let d = dst + r * dstStride
            for i in 0..<columns { d[i] = UInt8(truncatingIfNeeded: (UInt16(d[i]) &* keep &+ add) &>> 8) }
        }
    }
}
