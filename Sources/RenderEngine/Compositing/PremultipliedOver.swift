/// Porter-Duff "over" on one pixel of a premultiplied 4-channel canvas (`PremultipliedImage`),
/// in integers: the general compositing path's layers and, on an output that keeps alpha, the
/// overlay sprites too, so both share one rounding.
enum PremultipliedOver {
    /// Composites premultiplied (c0, c1, c2, a) weighted by `weight` (1/65536ths) "over" the
    /// canvas pixel at `px`: out = src·w + dst·(1 − a·w), alpha included. Wrapping unsigned
    /// arithmetic: nothing here can overflow, and the compiler then drops overflow checks and
    /// turns the divisions by 255 into multiplies.
    @inline(__always)
    static func blend(_ px: UnsafeMutablePointer<UInt8>, _ c0: UInt32, _ c1: UInt32, _ c2: UInt32, _ a: UInt32, weight: UInt32) {
        var (c0, c1, c2, a) = (c0, c1, c2, a)
        if weight != 65536 { // at full weight each product rounds back to the value itself
            c0 = (c0 &* weight &+ 32768) &>> 16; c1 = (c1 &* weight &+ 32768) &>> 16
            c2 = (c2 &* weight &+ 32768) &>> 16; a = (a &* weight &+ 32768) &>> 16
        }
        guard a > 0 else { return }
        guard a < 255 else { // nothing of the canvas shows through
            px[0] = UInt8(truncatingIfNeeded: c0); px[1] = UInt8(truncatingIfNeeded: c1)
            px[2] = UInt8(truncatingIfNeeded: c2); px[3] = 255
            return
        }
        let keep = 255 &- a
        px[0] = UInt8(truncatingIfNeeded: c0 &+ (UInt32(px[0]) &* keep &+ 127) / 255)
        px[1] = UInt8(truncatingIfNeeded: c1 &+ (UInt32(px[1]) &* keep &+ 127) / 255)
        px[2] = UInt8(truncatingIfNeeded: c2 &+ (UInt32(px[2]) &* keep &+ 127) / 255)
        px[3] = UInt8(truncatingIfNeeded: a &+ (UInt32(px[3]) &* keep &+ 127) / 255)
    }
}
