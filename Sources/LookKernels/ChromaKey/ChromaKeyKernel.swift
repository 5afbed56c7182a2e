import Looks

extension LookKernel {
    /// `Look.chromaKey`'s pixels.
    static let chromaKey = LookKernel(.chromaKey) { settings in
        ChromaKeyKernel(key: settings.color("color"), similarity: settings.number("similarity"), softness: settings.number("softness"),
                        spill: settings.number("spill"))
    }
}

/// `{ type: chroma_key }` at one instant. Alpha comes from the distance, in the Cb/Cr plane,
/// between a pixel's chroma and the key colour's (as FFmpeg's `chromakey`: normalised by
/// 255·√2): transparent up to `similarity`, opaque beyond `similarity + softness`, linear
/// between. Spill suppression takes `spill` of what remains of the key's hue out of each
/// pixel's chroma (its component along the key's direction, when positive). Integer maths,
/// distances in 1/16ths of a chroma level.
struct ChromaKeyKernel: PixelLook {
    let keyU: Int32, keyV: Int32
    /// Squared length of the key's chroma offset from grey.
    let keyLength2: Int64
    let similarity: Int32, softness: Int32, spill: Int64

    /// `key` is the key colour shown over black.
    init(key: YUVColor, similarity: Double, softness: Double, spill: Double) {
        keyU = Int32(key.cb) - 128
        keyV = Int32(key.cr) - 128
        keyLength2 = Int64(keyU) * Int64(keyU) + Int64(keyV) * Int64(keyV)
        let scale = 255 * 2.0.squareRoot() * 16
        self.similarity = Int32((min(max(similarity, 0), 1) * scale).rounded())
        self.softness = Int32((min(max(softness, 0), 1) * scale).rounded())
        self.spill = Int64((min(max(spill, 0), 1) * 4096).rounded())
    }

    @inline(__always) func apply(y: inout Int32, cb: inout Int32, cr: inout Int32, alpha: inout Int32) {
        let du = cb - 128 - keyU, dv = cr - 128 - keyV
        let distance = Self.squareRoot(UInt32(du * du + dv * dv) << 8) // 1/16ths of a level
        if distance <= similarity {
            alpha = 0
        } else if distance < similarity + softness {
            alpha = alpha * ((distance - similarity) * 255 + softness / 2) / softness / 255
        }
        guard spill > 0, keyLength2 > 0 else { return }
        let u = Int64(cb - 128), v = Int64(cr - 128)
        let along = u * Int64(keyU) + v * Int64(keyV)
        guard along > 0 else { return }
        cb -= Int32(spill * along * Int64(keyU) / (keyLength2 * 4096))
        cr -= Int32(spill * along * Int64(keyV) / (keyLength2 * 4096))
    }

    /// ⌊√n⌋, exactly (a double's square root is correctly rounded; the result is then fixed up).
    @inline(__always) static func squareRoot(_ n: UInt32) -> Int32 {
        var r = UInt64(Double(n).squareRoot())
        while r * r > UInt64(n) { r -= 1 }
        while (r + 1) * (r + 1) <= UInt64(n) { r += 1 }
        return Int32(r)
    }
}
