import Foundation
import PortableMath

/// A look-ahead limiter that keeps the true peak (`TruePeakDetector`) at or below `ceiling`.
/// For each position it needs the gain `min(1, ceiling / peak)` (over the spans on both sides
/// of the sample); the gain applied is the lowest needed over the next `lookahead` frames,
/// coming back up with a 100 ms release, then averaged over `lookahead + 1` frames, so it
/// ramps down smoothly before a peak and is at or below what the peak needs when it arrives.
/// Frames come out `latency` frames after they go in. The gain is summed in fixed point, so
/// the output is the same bits on every CPU and never drifts.
final class TruePeakLimiter {
    let latency: Int
    private let channels: Int
    private let ceiling: Float
    private let lookahead: Int
    private let releaseCoefficient: Float
    private var detector: TruePeakDetector
    /// Frames waiting `latency` frames, a ring.
    private var delayLine: [Float]
    private var delayPosition = 0
    private var previousNeed: Float = 1
    /// The needed gains of the last `lookahead + 1` positions, lowest first (a monotonic
    /// queue of (position, gain) for the running minimum).
    private var minimumQueue: [(position: Int64, gain: Float)] = []
    private var minimumHead = 0
    private var released: Float = 1
    /// The released gains of the last `lookahead + 1` positions in fixed point, a ring, and their sum.
    private var window: [Int64]
    private var windowPosition = 0
    private var windowSum: Int64
    private var position: Int64 = 0

    private static let one: Int64 = 1 << 30

    init(channels: Int, sampleRate: Int, ceiling: Float) {
        self.channels = channels
        self.ceiling = ceiling
        lookahead = max(1, sampleRate * 3 / 1000)
        latency = lookahead + TruePeakDetector.delay
        releaseCoefficient = Float(1 - PortableMath.exp(-1 / (0.1 * Double(sampleRate))))
        detector = TruePeakDetector(channels: channels)
        delayLine = Array(repeating: 0, count: latency * channels)
        window = Array(repeating: Self.one, count: lookahead + 1)
        windowSum = Self.one * Int64(lookahead + 1)
    }

    /// Limits `count` frames in place: frame i becomes the frame that went in `latency` frames
    /// before it, times its gain (silence at first).
    func process(_ frames: UnsafeMutablePointer<Float>, count: Int) {
        for i in 0..<count {
            let frame = frames + i * channels
            let gain = nextGain(peak: detector.push(frame))
            for c in 0..<channels {
                let slot = delayPosition * channels + c
                let delayed = delayLine[slot]
                delayLine[slot] = frame[c]
                frame[c] = delayed * gain
            }
            delayPosition = (delayPosition + 1) % latency
        }
    }

    /// The gain of the frame `latency` frames back, given the peak around the frame
    /// `TruePeakDetector.delay` frames back.
    private func nextGain(peak: Float) -> Float {
        let need = peak > ceiling ? ceiling / peak : 1
        let both = min(need, previousNeed) // the span before the sample as well as after it
        previousNeed = need
        while minimumQueue.count > minimumHead, minimumQueue[minimumQueue.count - 1].gain >= both { minimumQueue.removeLast() }
        minimumQueue.append((position, both))
        while minimumQueue[minimumHead].position <= position - Int64(lookahead + 1) { minimumHead += 1 }
        if minimumHead > 4096 {
            minimumQueue.removeFirst(minimumHead)
            minimumHead = 0
        }
        let held = minimumQueue[minimumHead].gain
        released = held <= released ? held : min(held, released + (held - released) * releaseCoefficient)
        let fixed = Int64(released * Float(Self.one))
        windowSum += fixed - window[windowPosition]
        window[windowPosition] = fixed
        windowPosition = (windowPosition + 1) % window.count
        position += 1
        // Rounded down, so it never exceeds the mean of the held gains.
        return Float(windowSum / Int64(window.count)) / Float(Self.one)
    }
}
