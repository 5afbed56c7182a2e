extension Look {
    /// `{ type: chroma_key }`: pixels near `color` become transparent.
    public static let chromaKey: Look = {
        let color = LookParameter("color", .color, listed: .value, summary: "The key colour made transparent, such as \"#00ff00\".", note: "the key")
        // Chroma distance from the key colour, as a fraction of the largest possible (0…1),
        // under which a pixel is fully transparent.
        let similarity = LookParameter.number("similarity", default: 0.4, listed: .named,
                                              summary: "Chroma distance from the key (0 to 1) under which a pixel is fully transparent (default 0.4).")
        // The width, in the same unit, of the ramp from transparent to opaque beyond `similarity`.
        let softness = LookParameter.number("softness", default: 0.1, listed: .named,
                                            summary: "Width of the ramp from transparent to opaque beyond similarity (default 0.1).")
        // How much of the key colour's hue is taken out of what stays (0…1).
        let spill = LookParameter.number("spill", default: 0.5, listed: .named,
                                         summary: "How much of the key's hue is taken out of what stays, 0 to 1 (default 0.5).")
        return Look(name: "chroma_key", summary: "a colour made transparent",
                    documentation: "Pixels whose chroma lies within `similarity` of the key's (distance in the Cb/Cr plane over 255·√2, as FFmpeg's "
                        + "`chromakey`) become transparent; beyond `similarity + softness` they stay opaque, with a linear ramp between. `spill` "
                        + "takes that share of the key's hue out of what stays (the chroma component along the key's direction), so a green "
                        + "fringe turns neutral. A keyed clip has alpha and is composited on the general path.",
                    parameters: [color, similarity, softness, spill], makesAlpha: true, graphKey: "chromaKey",
                    nestsParameters: true) { settings in
            ChromaKeyLook(key: settings.color(color), similarity: settings.number(similarity), softness: settings.number(softness),
                          spill: settings.number(spill))
        }
    }()
}

/// `{ type: chroma_key }` at one instant. Alpha comes from the distance, in the Cb/Cr plane,
/// between a pixel's chroma and the key colour's (as FFmpeg's `chromakey`: normalised by
/// 255·√2): transparent up to `similarity`, opaque beyond `similarity + softness`, linear
/// between. Spill suppression takes `spill` of what remains of the key's hue out of each
/// pixel's chroma (its component along the key's direction, when positive). Integer maths,
/// distances in 1/16ths of a chroma level.
struct ChromaKeyLook: PixelLook {
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
