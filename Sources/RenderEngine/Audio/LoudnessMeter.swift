import Foundation
import PortableMath

/// Integrated loudness (LUFS) and true peak of a stream of interleaved float frames, per
/// ITU-R BS.1770-4 / EBU R128: K-weighting (a high shelf and a high pass, for any sample
/// rate), channels weighted (5.1: L, R, C 1, LFE left out, surrounds 1.41), mean squares over
/// 100 ms steps, 400 ms blocks overlapping by 75 %, an absolute gate at −70 LUFS and a
/// relative one 10 LU below the loudness of the blocks above it. Sequential Double
/// arithmetic in a fixed order, so the same samples give the same figure everywhere. Memory
/// is one number per 100 ms (about 280 KB for an hour).
struct LoudnessMeter {
    private let channels: Int
    private let weights: [Double]
    private let stepFrames: Int
    private var filters: [KWeighting]
    private var stepSum = 0.0
    private var stepFilled = 0
    private var stepEnergies: [Double] = []
    private var peakDetector: TruePeakDetector
    /// The highest true peak so far, linear.
    private(set) var truePeak: Float = 0

    init(sampleRate: Int, channels: Int) {
        self.channels = channels
        weights = channels == 6 ? [1, 1, 1, 0, 1.41, 1.41] : Array(repeating: 1, count: channels)
        stepFrames = sampleRate / 10
        filters = Array(repeating: KWeighting(sampleRate: Double(sampleRate)), count: channels)
        peakDetector = TruePeakDetector(channels: channels)
    }

    mutating func add(_ frames: UnsafePointer<Float>, count: Int) {
        for i in 0..<count {
            let frame = frames + i * channels
            var sum = 0.0
            for c in 0..<channels {
                let y = filters[c].process(Double(frame[c]))
                sum += weights[c] * y * y
            }
            stepSum += sum
            stepFilled += 1
            if stepFilled == stepFrames {
                stepEnergies.append(stepSum / Double(stepFrames))
                stepSum = 0
                stepFilled = 0
            }
            truePeak = max(truePeak, peakDetector.push(frame))
        }
    }

    /// The gated loudness of everything added, LUFS; nil when no 400 ms block is above the
    /// absolute gate (silence, or less than 400 ms).
    var integrated: Double? {
        guard stepEnergies.count >= 4 else { return nil }
        let blocks = (0...(stepEnergies.count - 4)).map { (j: Int) -> Double in
            let e = stepEnergies
            let sum: Double = e[j] + e[j + 1] + e[j + 2] + e[j + 3]
            return sum / 4
        }
        let loud = blocks.filter { Self.lufs($0) > -70 }
        guard !loud.isEmpty else { return nil }
        let relativeGate = Self.lufs(loud.reduce(0, +) / Double(loud.count)) - 10
        let gated = loud.filter { Self.lufs($0) > relativeGate }
        return Self.lufs(gated.reduce(0, +) / Double(gated.count))
    }

    /// The true peak so far, dBTP (−∞ for silence).
    var truePeakDecibels: Double { 20 * PortableMath.log10(Double(truePeak)) }

    private static func lufs(_ energy: Double) -> Double { -0.691 + 10 * PortableMath.log10(energy) }
}

/// The K-weighting pre-filter of one channel: BS.1770's high shelf (+4 dB above about
/// 1.7 kHz) then its high pass (about 38 Hz), as two biquads with coefficients derived for
/// the sample rate (at 48 kHz they are the standard's).
private struct KWeighting {
    private var shelf: Biquad
    private var highPass: Biquad

    init(sampleRate rate: Double) {
        var k = PortableMath.tan(Double.pi * 1681.974450955533 / rate)
        var q = 0.7071752369554196
        let vh = PortableMath.pow(10, 3.999843853973347 / 20), vb = PortableMath.pow(vh, 0.4996667741545416)
        var a0 = 1 + k / q + k * k
        shelf = Biquad(b0: (vh + vb * k / q + k * k) / a0, b1: 2 * (k * k - vh) / a0, b2: (vh - vb * k / q + k * k) / a0,
                       a1: 2 * (k * k - 1) / a0, a2: (1 - k / q + k * k) / a0)
        k = PortableMath.tan(Double.pi * 38.13547087602444 / rate)
        q = 0.5003270373238773
        a0 = 1 + k / q + k * k
        highPass = Biquad(b0: 1, b1: -2, b2: 1, a1: 2 * (k * k - 1) / a0, a2: (1 - k / q + k * k) / a0)
    }

    mutating func process(_ x: Double) -> Double { highPass.process(shelf.process(x)) }
}

/// A biquad in transposed direct form II.
private struct Biquad {
    let b0, b1, b2, a1, a2: Double
    private var z1 = 0.0, z2 = 0.0

    init(b0: Double, b1: Double, b2: Double, a1: Double, a2: Double) {
        (self.b0, self.b1, self.b2, self.a1, self.a2) = (b0, b1, b2, a1, a2)
    }

    mutating func process(_ x: Double) -> Double {
        let y = b0 * x + z1
        z1 = b1 * x - a1 * y + z2
        z2 = b2 * x - a2 * y
        return y
    }
}
