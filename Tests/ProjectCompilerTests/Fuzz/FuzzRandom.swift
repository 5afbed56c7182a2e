/// SplitMix64 with its own bounded draws, so a case depends only on the seed and its index,
/// never on the standard library's (unspecified) way of drawing `Int.random(in:using:)`.
struct FuzzRandom {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    /// The generator of case `index` of a run with `seed`: every case can be replayed alone.
    init(seed: UInt64, case index: Int) {
        var mixer = FuzzRandom(seed: seed ^ (UInt64(truncatingIfNeeded: index) &* 0xD1B5_4A32_D192_ED03))
        state = mixer.next()
    }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

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
