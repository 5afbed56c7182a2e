/// An 8-bit picture of 4 channels a pixel, alpha last, colour premultiplied by alpha,
/// row-major: R′G′B′A for source pictures with an alpha channel, and Y′CbCrA (full 4:4:4, the
/// standard's offsets premultiplied too, so every value is unsigned) for the general
/// compositing path's canvas.
///
/// Like `YUVFrame`, it either owns its pixels or borrows pixels kept alive by `owner` (a
/// decoded, converted frame), so sources reach the compositor without a copy.
///
/// @unchecked: raw pixels; one stage writes an image, then hands it on through a queue and never touches it again.
final class PremultipliedImage: @unchecked Sendable {
    let width: Int
    let height: Int
    /// Bytes per row.
    let stride: Int
    let pixels: UnsafeMutablePointer<UInt8>
    /// Whatever keeps borrowed pixels alive; nil when the image owns them.
    private let owner: AnyObject?

    /// Allocates a transparent image.
    init(width: Int, height: Int) {
        precondition(width > 0 && height > 0, "PremultipliedImage needs a positive size, not \(width)x\(height)")
        self.width = width
        self.height = height
        stride = width * 4
        pixels = .allocate(capacity: stride * height)
        pixels.initialize(repeating: 0, count: stride * height)
        owner = nil
    }

    /// Shows pixels owned by `owner` without copying them.
    init(width: Int, height: Int, stride: Int, pixels: UnsafeMutablePointer<UInt8>, owner: AnyObject) {
        precondition(width > 0 && height > 0 && stride >= width * 4, "PremultipliedImage \(width)x\(height), \(stride) bytes a row")
        self.width = width
        self.height = height
        self.stride = stride
        self.pixels = pixels
        self.owner = owner
    }

    deinit { if owner == nil { pixels.deallocate() } }

    /// Base address, for filling the image (a decoder's output, a test pattern).
    var baseAddress: UnsafeMutablePointer<UInt8> { pixels }

    func pixel(x: Int, y: Int) -> (r: UInt8, g: UInt8, b: UInt8, a: UInt8) {
        let p = pixels + y * stride + x * 4
        return (p[0], p[1], p[2], p[3])
    }

    func setPixel(x: Int, y: Int, _ rgba: (r: UInt8, g: UInt8, b: UInt8, a: UInt8)) {
        let p = pixels + y * stride + x * 4
        p[0] = rgba.r; p[1] = rgba.g; p[2] = rgba.b; p[3] = rgba.a
    }

    func fill(_ rgba: (r: UInt8, g: UInt8, b: UInt8, a: UInt8)) {
        for x in 0..<width { setPixel(x: x, y: 0, rgba) }
        for y in 1..<height { (pixels + y * stride).update(from: pixels, count: width * 4) }
    }

    /// Copies the pixels of `other`, an image of the same size.
    func copy(from other: PremultipliedImage) {
        precondition(other.width == width && other.height == height, "copying a \(other.width)x\(other.height) image into \(width)x\(height)")
        for y in 0..<height { (pixels + y * stride).update(from: other.pixels + y * other.stride, count: width * 4) }
    }
}

extension PremultipliedImage {
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
