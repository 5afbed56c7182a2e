import CompositionGraph
import Foundation
import MediaTime
import PortableMath

/// What loudness normalization did (`output.audio.loudness`): the mix as measured, the gain
/// applied, and the loudness and true peak of what was handed to the audio encoder.
public struct LoudnessReport: Sendable, Equatable, Codable {
    public var target: LoudnessTarget
    /// The mix before leveling, LUFS; nil when it is silent (no gain is applied then).
    public var measured: Double?
    /// The static gain applied, dB (to 0.01 dB).
    public var gain: Double
    /// What was written, LUFS; nil when silent.
    public var output: Double?
    /// What was written, dBTP.
    public var outputTruePeak: Double

    /// `loudness: measured -23.05 LUFS, target -14.00 LUFS, gain +9.05 dB; output -14.01 LUFS, true peak -1.02 dBTP (limit -1.00)`.
    public var summary: String {
        "loudness: measured \(Self.text(measured)) LUFS, target \(Self.fixed(target.integrated)) LUFS, gain \(gain >= 0 ? "+" : "")\(Self.fixed(gain)) dB; "
            + "output \(Self.text(output)) LUFS, true peak \(Self.text(outputTruePeak)) dBTP (limit \(Self.fixed(target.truePeak)))"
    }

    /// The same as one JSON object.
    public var json: String {
        #"{"loudness":{"target":\#(Self.fixed(target.integrated)),"true_peak_limit":\#(Self.fixed(target.truePeak)),"#
            + #""measured":\#(measured.map(Self.fixed) ?? "null"),"gain":\#(Self.fixed(gain)),"#
            + #""output":\#(output.map(Self.fixed) ?? "null"),"true_peak":\#(outputTruePeak.isFinite ? Self.fixed(outputTruePeak) : "null")}}"#
    }

    private static func text(_ v: Double?) -> String { v.flatMap { $0.isFinite ? fixed($0) : nil } ?? "silent" }

    /// Two decimals with a dot, whatever the locale.
    private static func fixed(_ v: Double) -> String {
        let hundredths = Int64((v * 100).rounded())
        let sign = hundredths < 0 ? "-" : ""
        let m = abs(hundredths)
        return "\(sign)\(m / 100).\(m % 100 < 10 ? "0" : "")\(m % 100)"
    }
}

/// The first pass of loudness normalization: the mix of `range` as the join will make it,
/// before any leveling, measured block by block (nothing is kept but the meter's figures).
enum LoudnessNormalization {
    /// The gain, dB to 0.01 dB, that brings `measured` LUFS to the target (0 for silence).
    static func gain(measured: Double?, target: LoudnessTarget) -> Double {
        guard let measured else { return 0 }
        return ((target.integrated - measured) * 100).rounded() / 100
    }

    static func leveling(gain: Double, target: LoudnessTarget) -> Leveling {
        Leveling(gain: Float(PortableMath.pow(10, gain / 20)), ceiling: Float(PortableMath.pow(10, target.truePeak / 20)))
    }

    /// The integrated loudness of the unleveled mix of `range`, LUFS (nil: silent). Stops
    /// with `RenderError.cancelled` once `isCancelled` says so.
    static func measure(_ graph: CompositionGraph, range: TimeRange, open: @escaping AudioMixer.SourceFactory,
                        isCancelled: () -> Bool) throws -> Double? {
        let rate = graph.output.audio.sampleRate, channels = graph.output.audio.channels
        let mixer = AudioMixer(graph: graph, sampleRate: rate, channels: channels, softLimits: false, makeSource: open)
        var meter = LoudnessMeter(sampleRate: rate, channels: channels)
        let blockSize = 4096
        let block = UnsafeMutablePointer<Float>.allocate(capacity: blockSize * channels)
        defer { block.deallocate() }
        var next = range.start.samplePosition(rate: rate)
        let end = range.end.samplePosition(rate: rate)
        while next < end {
            if isCancelled() { throw RenderError.cancelled }
            let n = Int(min(Int64(blockSize), end - next))
            try mixer.mix(from: next, count: n, into: block)
            meter.add(block, count: n)
            next += Int64(n)
        }
        return meter.integrated
    }
}
