import CompositionGraph
import LookKernels

/// The graph's colours through the matrix (which lives in Looks, below the graph).
extension YCbCrMatrix {
    /// A graph colour (straight alpha) shown over black, as the output's Y′CbCr.
    func yuv(of color: Color) -> YUVColor {
        let rgb = Self.premultipliedBytes(color)
        return yuv(r: Int32(rgb.r), g: Int32(rgb.g), b: Int32(rgb.b))
    }

    /// 8-bit premultiplied R′G′B′A of a graph colour.
    static func premultipliedBytes(_ c: Color) -> (r: UInt8, g: UInt8, b: UInt8, a: UInt8) {
        func byte(_ v: Double) -> UInt8 { UInt8((min(max(v, 0), 1) * 255).rounded()) }
        let a = min(max(c.alpha, 0), 1)
        return (byte(c.red * a), byte(c.green * a), byte(c.blue * a), byte(a))
    }
}
