/// Keeps a mix inside [−1, 1] without pumping: a memoryless curve, linear up to −1 dBFS
/// (0.891) and bending smoothly (continuous slope) towards ±1 above it. Being memoryless it
/// never changes the level of quiet material around a peak, and it is plain arithmetic, so
/// every CPU gets the same bits.
enum SoftLimiter {
    static let threshold: Float = 0.891

    @inline(__always) static func apply(_ x: Float) -> Float {
        let m = abs(x)
        guard m > threshold else { return x }
        let z = (m - threshold) / (1 - threshold)
        let y = threshold + (1 - threshold) * z / (1 + z)
        return x < 0 ? -y : y
    }
}
