/// How much of a layer shows at each output pixel: 0 (hidden) … 255 (shown), one byte a
/// pixel, rows `width` bytes apart, at the render size.
struct CoveragePlane: Sendable {
    let width: Int
    let height: Int
    let bytes: [UInt8]

    init(width: Int, height: Int, bytes: [UInt8]) {
        precondition(bytes.count == width * height, "a \(width)x\(height) coverage plane needs \(width * height) bytes, not \(bytes.count)")
        self.width = width
        self.height = height
        self.bytes = bytes
    }

    /// `weight` (1/65536ths) scaled by the coverage `c` (0…255), rounded: the compositor's
    /// layer weight at a pixel of a masked layer.
    @inline(__always)
    static func apply(_ c: UInt8, to weight: UInt32) -> UInt32 {
        (weight &* UInt32(c) &+ 127) / 255
    }
}
