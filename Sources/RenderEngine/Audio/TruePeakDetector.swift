import Foundation
import PortableMath

/// The true peak of a stream of interleaved float frames, as ITU-R BS.1770-4 Annex 2 asks:
/// 4x oversampled. Each frame pushed yields the highest magnitude, across channels, of sample
/// k and of the points k + 1/4, k + 1/2 and k + 3/4 interpolated between it and the next one,
/// where k is the frame pushed `delay` frames earlier (the interpolation needs six frames past
/// it). The interpolator is a Hann-windowed sinc over 12 frames per phase, each phase's taps
/// summing to 1; sequential Float arithmetic, so every CPU gets the same bits.
struct TruePeakDetector {
    static let delay = 6
    private static let taps = 2 * delay
    /// Taps for the phases 1/4, 1/2, 3/4, applied to frames k−5 … k+6.
    private static let phases: [[Float]] = (1...3).map { p in
        let f = Double(p) / 4
        let raw = (0..<taps).map { i -> Double in
            let t = f - Double(i - (delay - 1))
            let window = 0.5 + 0.5 * PortableMath.cos(Double.pi * t / (Double(delay) + 0.5))
            return (t == 0 ? 1 : PortableMath.sin(Double.pi * t) / (Double.pi * t)) * window
        }
        let sum = raw.reduce(0, +)
        return raw.map { Float($0 / sum) }
    }

    private let channels: Int
    /// Per channel, the last `taps` samples, twice over (so any window of `taps` is contiguous).
    private var history: [Float]
    private var position = 0

    init(channels: Int) {
        self.channels = channels
        history = Array(repeating: 0, count: channels * 2 * Self.taps)
    }

    /// Takes one frame; returns the peak around the frame pushed `delay` frames before.
    mutating func push(_ frame: UnsafePointer<Float>) -> Float {
        let taps = Self.taps
        var peak: Float = 0
        history.withUnsafeMutableBufferPointer { h in
            for c in 0..<channels {
                let base = c * 2 * taps
                h[base + position] = frame[c]
                h[base + position + taps] = frame[c]
                // The window k−5 … k+6 ends with the newest sample.
                let window = h.baseAddress! + base + position + 1
                peak = max(peak, abs(window[Self.delay - 1]))
                for phase in Self.phases {
                    var y: Float = 0
                    for i in 0..<taps { y += window[i] * phase[i] }
                    peak = max(peak, abs(y))
                }
            }
        }
        position = (position + 1) % taps
        return peak
    }
}
