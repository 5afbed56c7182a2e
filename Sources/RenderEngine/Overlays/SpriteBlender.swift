import LookKernels

/// Blends overlay sprites into a Y′CbCr 4:2:0 frame, or onto the premultiplied canvas of an
/// output that keeps alpha, in integers.
///
/// Each sprite is converted once to premultiplied Y′CbCrA (for a frame, with its chroma
/// averaged on the output's 2×2 chroma grid) and kept while its pixels stay the same and it
/// stays on screen (a watermark is converted once per render). Not thread-safe: one per
/// compositing thread.
final class SpriteBlender {
    private var frameSprites = SpriteCache<ConvertedSprite>()
    private var canvasSprites = SpriteCache<CanvasSprite>()
    let matrix: YCbCrMatrix

    init(matrix: YCbCrMatrix = .bt709) { self.matrix = matrix }

    /// Starts a frame: sprites not blended between this and the next call leave the cache.
    func beginFrame() {
        frameSprites.beginFrame()
        canvasSprites.beginFrame()
    }

    /// Blends one sprite over `frame` (call in z-order, bottom first).
    func blend(_ sprite: SpriteView, into frame: YUVFrame) {
        guard let alpha = Self.opacity(sprite) else { return }
        // The origin's parity decides how sprite pixels fall on the chroma grid.
        frameSprites.converted(sprite, variant: (sprite.originX & 1) | (sprite.originY & 1) << 1) { ConvertedSprite($0, matrix: matrix) }
            .blend(into: frame, originX: sprite.originX, originY: sprite.originY, opacity: alpha)
    }

    /// Blends one sprite "over" the premultiplied Y′CbCrA `canvas`, alpha included (call in
    /// z-order, bottom first).
    func blend(_ sprite: SpriteView, onto canvas: PremultipliedImage) {
        guard let alpha = Self.opacity(sprite) else { return }
        canvasSprites.converted(sprite, variant: 0) { CanvasSprite($0, matrix: matrix) }
            .blend(onto: canvas, originX: sprite.originX, originY: sprite.originY, opacity: alpha)
    }

    /// The sprite's opacity in 1/256ths; nil when it does not show.
    private static func opacity(_ sprite: SpriteView) -> Int? {
        let alpha = Int((min(max(sprite.opacity, 0), 1) * 256).rounded())
        return alpha > 0 ? alpha : nil
    }
}

/// Conversions of sprites, by the object holding their pixels and a variant of the
/// conversion. Each conversion holds its pixels' owner, so the owner cannot be freed and its
/// identity reused by other pixels while the conversion is in the cache.
private struct SpriteCache<Converted: AnyObject> {
    private struct Key: Hashable {
        var owner: ObjectIdentifier
        var variant: Int
    }

    private var cache: [Key: Converted] = [:]
    private var usedThisFrame: Set<Key> = []

    mutating func beginFrame() {
        if cache.count > usedThisFrame.count { cache = cache.filter { usedThisFrame.contains($0.key) } }
        usedThisFrame.removeAll(keepingCapacity: true)
    }

    mutating func converted(_ sprite: SpriteView, variant: Int, convert: (SpriteView) -> Converted) -> Converted {
        let key = Key(owner: ObjectIdentifier(sprite.owner), variant: variant)
        usedThisFrame.insert(key)
        if let cached = cache[key] { return cached }
        let converted = convert(sprite)
        cache[key] = converted
        return converted
    }
}

/// A sprite in premultiplied Y′CbCrA. Luma: per pixel, alpha (0…255) and Y′·α/255 in 8.8
/// fixed point. Chroma: per cell of the output's chroma grid, the sums over its 2×2 pixels.
final class ConvertedSprite {
    /// Keeps the source pixels' owner alive (see `SpriteCache`).
    let owner: AnyObject
    let width: Int, height: Int
    /// Offset of the sprite's first pixel inside its first chroma cell (0 or 1 each way).
    let cellX: Int, cellY: Int
    let cellColumns: Int, cellRows: Int
    let lumaAlpha: [UInt8]
    let luma: [UInt16]
    let cellAlpha: [UInt16]
    let cellCb: [UInt32]
    let cellCr: [UInt32]

    init(_ s: SpriteView, matrix m: YCbCrMatrix) {
        owner = s.owner
        width = s.width
        height = s.height
        cellX = s.originX & 1
        cellY = s.originY & 1
        cellColumns = (cellX + width + 1) / 2
        cellRows = (cellY + height + 1) / 2
        var lumaAlpha = [UInt8](repeating: 0, count: width * height)
        var luma = [UInt16](repeating: 0, count: width * height)
        var cellAlpha = [UInt16](repeating: 0, count: cellColumns * cellRows)
        var cellCb = [UInt32](repeating: 0, count: cellColumns * cellRows)
        var cellCr = [UInt32](repeating: 0, count: cellColumns * cellRows)
        let bytes = s.pixels.assumingMemoryBound(to: UInt8.self)
        for y in 0..<height {
            for x in 0..<width {
                let p = bytes + y * s.stride + x * 4
                let b = Int(p[0]), g = Int(p[1]), r = Int(p[2]), a = Int(p[3])
                // Premultiplied colour: the offsets (16 and 128) scale with alpha too.
                let y16 = Int(m.yr) * r + Int(m.yg) * g + Int(m.yb) * b + (16 * a * 65536 + 127) / 255
                let cb16 = Int(m.ur) * r + Int(m.ug) * g + Int(m.ub) * b + (128 * a * 65536 + 127) / 255
                let cr16 = Int(m.vr) * r + Int(m.vg) * g + Int(m.vb) * b + (128 * a * 65536 + 127) / 255
                lumaAlpha[y * width + x] = UInt8(a)
                luma[y * width + x] = UInt16(clamping: (y16 + 128) >> 8)
                let cell = ((y + cellY) / 2) * cellColumns + (x + cellX) / 2
                cellAlpha[cell] += UInt16(a)
                cellCb[cell] += UInt32(clamping: (cb16 + 128) >> 8)
                cellCr[cell] += UInt32(clamping: (cr16 + 128) >> 8)
            }
        }
        self.lumaAlpha = lumaAlpha
        self.luma = luma
        self.cellAlpha = cellAlpha
        self.cellCb = cellCb
        self.cellCr = cellCr
    }

    /// out = (colour·α·o + dst·(1 − α·o)), with α in 1/255ths and o (`opacity`) in 1/256ths,
    /// rounded half up: for luma ⌊(Y′α·o·255 + dst·(255·256 − α·o)·256 + 255·256·128) / (255·256²)⌋.
    /// Computed as ⌊(⌊Y′α·o·255 / 256⌋ + dst·(255·256 − α·o) + 255·128) / (255·256)⌋, the same
    /// value in 32 bits (⌊x / mn⌋ = ⌊⌊x / m⌋ / n⌋); chroma alike with four pixels' sums. Clamped
    /// to 255 (a sprite whose colour exceeds its alpha is not premultiplied, yet must not wrap).
    /// A pixel with no alpha keeps the frame's value.
    func blend(into frame: YUVFrame, originX: Int, originY: Int, opacity o: Int) {
        let x0 = max(0, originX), x1 = min(frame.width, originX + width)
        let y0 = max(0, originY), y1 = min(frame.height, originY + height)
        guard x0 < x1, y0 < y1 else { return }
        let colourScale = UInt32(o * 255), o32 = UInt32(o)
        let (yp, ys) = frame.plane(0)
        lumaAlpha.withUnsafeBufferPointer { alphas in
            luma.withUnsafeBufferPointer { lumas in
                for y in y0..<y1 {
                    let row = (y - originY) * width - originX
                    Self.blendRow(count: x1 - x0, alpha: alphas.baseAddress! + row + x0, colour: lumas.baseAddress! + row + x0,
                                  into: yp + y * ys + x0, whole: 255 * 256, colourScale: colourScale, opacity: o32)
                }
            }
        }
        let firstCellX = (originX - cellX) / 2, firstCellY = (originY - cellY) / 2
        let cx0 = max(0, x0 / 2), cx1 = min(frame.chromaWidth, (x1 + 1) / 2)
        let cy0 = max(0, y0 / 2), cy1 = min(frame.chromaHeight, (y1 + 1) / 2)
        let (up, cs) = frame.plane(1), (vp, _) = frame.plane(2)
        cellAlpha.withUnsafeBufferPointer { alphas in
            for (sums, plane) in [(cellCb, up), (cellCr, vp)] {
                sums.withUnsafeBufferPointer { colours in
                    for cy in cy0..<cy1 {
                        let row = (cy - firstCellY) * cellColumns - firstCellX
                        Self.blendRow(count: cx1 - cx0, alpha: alphas.baseAddress! + row + cx0, colour: colours.baseAddress! + row + cx0,
                                      into: plane + cy * cs + cx0, whole: 4 * 255 * 256, colourScale: colourScale, opacity: o32)
                    }
                }
            }
        }
    }

    /// One row of `blend`: `whole` is full coverage (α summed over the pixels of a sample, in
    /// 1/255ths, times 256).
    @inline(__always)
    private static func blendRow<Alpha: FixedWidthInteger & UnsignedInteger, Colour: FixedWidthInteger & UnsignedInteger>(
        count: Int, alpha: UnsafePointer<Alpha>, colour: UnsafePointer<Colour>, into dst: UnsafeMutablePointer<UInt8>,
        whole: UInt32, colourScale: UInt32, opacity: UInt32
    ) {
        let half = whole / 2
        for i in 0..<count {
            let a = UInt32(alpha[i])
            let weighted = UInt32(truncatingIfNeeded: (UInt64(colour[i]) &* UInt64(colourScale)) >> 8)
            let blended = (weighted &+ UInt32(dst[i]) &* (whole &- a &* opacity) &+ half) / whole
            dst[i] = a == 0 ? dst[i] : UInt8(truncatingIfNeeded: min(blended, 255))
        }
    }
}
