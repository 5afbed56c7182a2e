import CompositionGraph
import Foundation
import PortableMath

/// The gain of a ducked track, sample by sample, from its key (the mix of the tracks it ducks
/// under): the key's mean square, over channels, smoothed with a 10 ms time constant, is
/// compared with the threshold; while above it the attenuation grows towards the depth at
/// depth/attack dB a second, otherwise it falls back to 0 at depth/release dB a second.
/// Causal and sequential (the state runs on from one block to the next), so the same key
/// gives the same gains, whatever the blocks.
final class Ducker {
    private let channels: Int
    private let depth: Double
    private let thresholdPower: Double
    private let smoothing: Double
    private let attackStep: Double
    private let releaseStep: Double
    private var power = 0.0
    /// Current attenuation, dB (0 … depth), and its gain.
    private var attenuation = 0.0
    private var gain: Float = 1

    init(_ ducking: Ducking, sampleRate: Int, channels: Int) {
        self.channels = channels
        depth = ducking.depth
        thresholdPower = PortableMath.pow(10, ducking.threshold / 10)
        smoothing = PortableMath.exp(-1 / (0.01 * Double(sampleRate)))
        let rate = Double(sampleRate)
        let attack = ducking.attack.seconds * rate, release = ducking.release.seconds * rate
        attackStep = attack >= 1 ? depth / attack : depth
        releaseStep = release >= 1 ? depth / release : depth
    }

    private static let nepersPerDecibel = PortableMath.log(10) / 20

    /// The gains for `count` frames of key `key` (count × channels floats).
    func gains(key: UnsafePointer<Float>, count: Int, into gains: UnsafeMutablePointer<Float>) {
        for i in 0..<count {
            var sum = 0.0
            for c in 0..<channels {
                let x = Double(key[i * channels + c])
                sum += x * x
            }
            power = smoothing * power + (1 - smoothing) * sum / Double(channels)
            let target = power > thresholdPower ? min(depth, attenuation + attackStep) : max(0, attenuation - releaseStep)
            if target != attenuation {
                attenuation = target
                gain = Float(PortableMath.exp(-attenuation * Self.nepersPerDecibel)) // 10^(−dB/20)
            }
            gains[i] = gain
        }
    }
}
