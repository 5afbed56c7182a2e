import TestSupport

/// SplitMix64 with its own bounded draws, so a case depends only on the seed and its index,
/// never on the standard library's (unspecified) way of drawing `Int.random(in:using:)`.
struct FuzzRandom {
    private var generator: SplitMix64

    init(seed: UInt64) { generator = SplitMix64(seed: seed) }

    /// The generator of case `index` of a run with `seed`: every case can be replayed alone.
    init(seed: UInt64, case index: Int) {
        var mixer = SplitMix64(seed: seed ^ (UInt64(truncatingIfNeeded: index) &* 0xD1B5_4A32_D192_ED03))
        generator = SplitMix64(seed: mixer.next())
    }

    mutating func next() -> UInt64 { generator.next() }

    /// 0 ..< bound (bound > 0), by multiply-shift: no modulo bias worth speaking of for small bounds.
    mutating func below(_ bound: Int) -> Int {
        precondition(bound > 0)
        return Int((UInt128(next()) * UInt128(bound)) >> 64)
    }

    mutating func int(in range: ClosedRange<Int>) -> Int { range.lowerBound + below(range.upperBound - range.lowerBound + 1) }

    /// True with probability `percent` / 100.
    mutating func chance(_ percent: Int) -> Bool { below(100) < percent }

    mutating func pick<C: Collection>(_ items: C) -> C.Element where C.Index == Int {
        items[items.startIndex + below(items.count)]
    }

    /// A length skewed towards small values: 1, 2, 4 … up to `maximum`.
    mutating func skewedLength(upTo maximum: Int) -> Int {
        let bits = below(Int.bitWidth - maximum.leadingZeroBitCount + 1)
        return min(maximum, max(1, below(1 << bits) + 1))
    }
}
