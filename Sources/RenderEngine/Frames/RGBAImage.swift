/// An 8-bit RGBA picture with premultiplied alpha, row-major, 4 bytes a pixel: the general
/// (rotating) compositing path's canvas and its source format.
public final class RGBAImage: @unchecked Sendable {
    public let width: Int
    public let height: Int
    /// Bytes per row.
    public let stride: Int
    let pixels: UnsafeMutablePointer<UInt8>

    public init(width: Int, height: Int) {
        precondition(width > 0 && height > 0, "RGBAImage needs a positive size, not \(width)x\(height)")
        self.width = width
        self.height = height
        stride = width * 4
        pixels = .allocate(capacity: stride * height)
        pixels.initialize(repeating: 0, count: stride * height)
    }

    deinit { pixels.deallocate() }

    /// Base address, for filling the image (a decoder's output, a test pattern).
    package var baseAddress: UnsafeMutablePointer<UInt8> { pixels }

    public func pixel(x: Int, y: Int) -> (r: UInt8, g: UInt8, b: UInt8, a: UInt8) {
        let p = pixels + y * stride + x * 4
        return (p[0], p[1], p[2], p[3])
    }

    public func setPixel(x: Int, y: Int, _ rgba: (r: UInt8, g: UInt8, b: UInt8, a: UInt8)) {
        let p = pixels + y * stride + x * 4
        p[0] = rgba.r; p[1] = rgba.g; p[2] = rgba.b; p[3] = rgba.a
    }

    public func fill(_ rgba: (r: UInt8, g: UInt8, b: UInt8, a: UInt8)) {
        let word = UInt32(rgba.r) | UInt32(rgba.g) << 8 | UInt32(rgba.b) << 16 | UInt32(rgba.a) << 24
        UnsafeMutableRawPointer(pixels).bindMemory(to: UInt32.self, capacity: width * height)
            .update(repeating: UInt32(littleEndian: word), count: width * height)
        UnsafeMutableRawPointer(pixels).bindMemory(to: UInt8.self, capacity: stride * height)
    }
}

extension RGBAImage {
    /// Turns straight alpha into premultiplied alpha, in place.
    func premultiply() {
        for y in 0..<height {
            let row = pixels + y * stride
            for x in 0..<width {
                let p = row + 4 * x, a = UInt32(p[3])
                guard a < 255 else { continue }
                for c in 0..<3 { p[c] = UInt8((UInt32(p[c]) * a + 127) / 255) }
            }
        }
    }
}
