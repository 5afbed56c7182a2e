import LookKernels

/// An 8-bit planar Y′CbCr 4:2:0 picture (FFmpeg's `yuv420p`): the compositor's working and
/// output format. Chroma planes are ⌈width/2⌉ × ⌈height/2⌉.
///
/// An output that keeps an alpha channel has frames with a fourth, full-size plane (FFmpeg's
/// `yuva420p`): straight alpha, 0 transparent to 255 opaque, the colour planes unpremultiplied
/// (see `AlphaFrameConverter`). Opaque outputs have no alpha plane at all.
///
/// A frame either owns its planes (allocated once and reused frame after frame) or borrows
/// planes owned by someone else (a decoded frame passed through untouched), kept alive by
/// `owner`.
///
/// @unchecked: raw planes; one stage writes a frame, then hands it on through a queue and never touches it again.
final class YUVFrame: @unchecked Sendable {
    let width: Int
    let height: Int
    var chromaWidth: Int { (width + 1) / 2 }
    var chromaHeight: Int { (height + 1) / 2 }

    let y: UnsafeMutablePointer<UInt8>
    let u: UnsafeMutablePointer<UInt8>
    let v: UnsafeMutablePointer<UInt8>
    /// The alpha plane (`yStride` bytes a row), or nil for an opaque frame.
    let a: UnsafeMutablePointer<UInt8>?
    let yStride: Int
    let chromaStride: Int
    private let storage: UnsafeMutableRawPointer?
    /// Whatever keeps borrowed planes alive.
    private let owner: AnyObject?

    /// Allocates a frame, with an alpha plane if `alpha`; rows are 64-byte aligned.
    init(width: Int, height: Int, alpha: Bool = false) {
        precondition(width > 0 && height > 0, "YUVFrame needs a positive size, not \(width)x\(height)")
        self.width = width
        self.height = height
        yStride = (width + 63) & ~63
        chromaStride = ((width + 1) / 2 + 63) & ~63
        let ch = (height + 1) / 2
        let bytes = yStride * height * (alpha ? 2 : 1) + 2 * chromaStride * ch
        let raw = UnsafeMutableRawPointer.allocate(byteCount: bytes, alignment: 64)
        raw.initializeMemory(as: UInt8.self, repeating: 0, count: bytes)
        storage = raw
        y = raw.assumingMemoryBound(to: UInt8.self)
        u = y + yStride * height
        v = u + chromaStride * ch
        a = alpha ? v + chromaStride * ch : nil
        owner = nil
    }

    /// Wraps planes owned by `owner` (for example a decoder's frame) without copying; `a`, if
    /// given, has `yStride` bytes a row.
    init(width: Int, height: Int, y: UnsafeMutablePointer<UInt8>, u: UnsafeMutablePointer<UInt8>,
         v: UnsafeMutablePointer<UInt8>, a: UnsafeMutablePointer<UInt8>? = nil, yStride: Int, chromaStride: Int, owner: AnyObject) {
        self.width = width
        self.height = height
        self.y = y
        self.u = u
        self.v = v
        self.a = a
        self.yStride = yStride
        self.chromaStride = chromaStride
        storage = nil
        self.owner = owner
    }

    deinit { storage?.deallocate() }

    /// The object whose planes a borrowing frame shows.
    var planeOwner: AnyObject? { owner }

    /// The planes: 3, or 4 with alpha.
    var planeCount: Int { a == nil ? 3 : 4 }

    /// Plane 0 (Y), 1 (Cb), 2 (Cr) or 3 (A): base address and bytes per row.
    func plane(_ index: Int) -> (base: UnsafeMutablePointer<UInt8>, stride: Int) {
        switch index {
        case 0: return (y, yStride)
        case 1: return (u, chromaStride)
        case 2: return (v, chromaStride)
        default:
            guard let a else { preconditionFailure("an opaque frame has no alpha plane") }
            return (a, yStride)
        }
    }

    /// Rows and columns of plane `index`.
    private func planeSize(_ index: Int) -> (columns: Int, rows: Int) {
        index == 1 || index == 2 ? (chromaWidth, chromaHeight) : (width, height)
    }

    /// Sample of plane `index` at (x, y) in that plane's own coordinates.
    func sample(plane index: Int, x: Int, y row: Int) -> UInt8 {
        let p = plane(index)
        return p.base[row * p.stride + x]
    }

    /// Sets every sample of the frame to one colour.
    func fill(_ color: YUVColor) {
        for row in 0..<height { (y + row * yStride).update(repeating: color.y, count: width) }
        for row in 0..<chromaHeight {
            (u + row * chromaStride).update(repeating: color.cb, count: chromaWidth)
            (v + row * chromaStride).update(repeating: color.cr, count: chromaWidth)
        }
    }

    /// Copies the visible samples of `other` (same size and planes) into this frame.
    func copy(from other: YUVFrame) {
        precondition(other.width == width && other.height == height && other.planeCount == planeCount,
                     "copy between frames of different sizes or planes")
        for i in 0..<planeCount {
            let src = other.plane(i), dst = plane(i), (cols, rows) = planeSize(i)
            for row in 0..<rows { (dst.base + row * dst.stride).update(from: src.base + row * src.stride, count: cols) }
        }
    }

    /// Visible samples, plane after plane without row padding (for hashing and tests).
    func packedBytes() -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(width * height * (planeCount - 2) + 2 * chromaWidth * chromaHeight)
        for i in 0..<planeCount {
            let p = plane(i), (cols, rows) = planeSize(i)
            for row in 0..<rows { out.append(contentsOf: UnsafeBufferPointer(start: p.base + row * p.stride, count: cols)) }
        }
        return out
    }
}
