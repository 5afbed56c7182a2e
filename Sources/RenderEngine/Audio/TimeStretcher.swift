import Foundation
import MediaTime
import PortableMath

/// Plays a source faster or slower without changing its pitch (AVAudioTimePitchAlgorithm
/// `.timeDomain`): WSOLA, waveform-similarity overlap-add.
///
/// Output grain j starts at output sample j·H (H = half a grain, 20 ms) and is N = 2H samples
/// of the source from its analysis position a(j) = round(j·H·speed) + δ(j), under a periodic
/// Hann window (overlapping windows sum to 1). δ(j) ∈ [−Δ, Δ] (Δ = 10 ms) is the
/// shift whose start best continues the previous grain's waveform (normalised correlation
/// with the source right after that grain's first half), so grains join in phase and there
/// is no flanging or clicks.
///
/// Positions are addressed like any `AudioSampleSource` at the output rate: position
/// `origin + m` is output sample m of the stretch, which starts at source sample `origin`.
/// The choice of δ(j) depends on δ(j − 1), so the chain always runs from the first grain: a
/// render that starts inside a stretched clip first searches the grains before it (about
/// 0.1 ms each), and the choices never depend on where reading started (given the same
/// source samples). Plain `Float` arithmetic in a fixed order: the same bits on every machine.
final class TimeStretcher: AudioSampleSource {
    private let speed: Rational
    private let source: SourceHistory
    private let channels: Int
    private let origin: Int64
    /// Half a grain (the hop between output grains) and the search radius, in samples.
    private let hop: Int
    private let radius: Int
    private let window: [Float]
    /// The furthest grain of the chain found so far and the recent ones (grain → source position).
    private var last: (grain: Int64, position: Int64)
    private var recent: [Int64: Int64] = [:]
    private var grainBuffer: [Float]
    private var candidateMono: [Float]
    private var targetMono: [Float]

    /// Stretches `inner` (read at the output rate, `channels` interleaved) from source sample
    /// `origin` at `speed` (source seconds per output second).
    init(_ inner: AudioSampleSource, channels: Int, sampleRate: Int, origin: Int64, speed: Rational) {
        precondition(!speed.isNegative && !speed.isZero, "time stretch speed \(speed)")
        self.channels = channels
        self.origin = origin
        self.speed = speed
        hop = max(16, sampleRate / 50)
        radius = max(4, sampleRate / 100)
        source = SourceHistory(inner, channels: channels, keep: 8 * hop + 4 * radius)
        let n = 2 * hop
        window = (0..<n).map { i in Float(0.5 - 0.5 * PortableMath.cos(2 * Double.pi * Double(i) / Double(n))) }
        last = (0, origin)
        grainBuffer = []
        candidateMono = []
        targetMono = []
    }

    func read(from position: Int64, count: Int, into buffer: UnsafeMutablePointer<Float>) throws {
        buffer.update(repeating: 0, count: count * channels)
        let h = Int64(hop), n = 2 * h
        let first = position - origin, end = first + Int64(count)
        // Grains overlapping [first, end): those starting in (first − N, end).
        var j = floorDivision(first - n + 1, h)
        while j * h < end {
            let grainStart = j * h
            let from = max(first, grainStart), to = min(end, grainStart + n)
            if from < to {
                let a = try analysisPosition(j)
                try readSource(from: a + (from - grainStart), count: Int(to - from))
                for k in 0..<Int(to - from) {
                    let w = window[Int(from - grainStart) + k]
                    let out = buffer + (Int(from - first) + k) * channels
                    for c in 0..<channels { out[c] += w * grainBuffer[k * channels + c] }
                }
            }
            j += 1
        }
    }

    /// Source position (absolute) where grain `j` reads. Grains up to 0 read at their nominal
    /// position; each later one continues the chain from grain 0, so the result does not
    /// depend on where reading started. Reads go forward, so the chain is extended a grain or
    /// two at a time; a jump back restarts it from grain 0.
    private func analysisPosition(_ j: Int64) throws -> Int64 {
        if j <= 0 { return nominal(j) }
        if let known = recent[j] { return known }
        var (k, position) = last.grain <= j ? last : (0, nominal(0))
        while k < j {
            position = try bestContinuation(of: position, grain: k + 1)
            k += 1
            recent[k] = position
        }
        last = (k, position)
        if recent.count > 16 { recent = recent.filter { $0.key > k - 8 } }
        return position
    }

    private func nominal(_ j: Int64) -> Int64 { origin + (Rational(j * Int64(hop)) * speed).rounded }

    /// The analysis position of grain `j` whose start best continues the waveform that the
    /// previous grain (at `previous`) would have gone on with: source samples from
    /// `previous + H`, over the H samples where the two grains overlap.
    private func bestContinuation(of previous: Int64, grain j: Int64) throws -> Int64 {
        let centre = nominal(j), span = hop + 2 * radius
        try mono(from: previous + Int64(hop), count: hop, into: &targetMono)
        try mono(from: centre - Int64(radius), count: span, into: &candidateMono)
        var best = 0, bestScore = -Float.infinity
        // Coarse search every 4 samples, then every sample around the best.
        func score(_ shift: Int) -> Float {
            var dot: Float = 0, energy: Float = 0
            var i = 0
            while i < hop {
                let x = candidateMono[shift + i]
                dot += x * targetMono[i]
                energy += x * x
                i += 2
            }
            return energy > 0 ? dot / energy.squareRoot() : 0
        }
        var shift = 0
        while shift <= 2 * radius {
            let s = score(shift)
            if s > bestScore { bestScore = s; best = shift }
            shift += 4
        }
        let coarse = best
        for shift in max(0, coarse - 3)...min(2 * radius, coarse + 3) where shift != coarse {
            let s = score(shift)
            if s > bestScore || (s == bestScore && shift < best) { bestScore = s; best = shift }
        }
        return centre - Int64(radius) + Int64(best)
    }

    /// `count` source frames from `position` into `grainBuffer`, interleaved.
    private func readSource(from position: Int64, count: Int) throws {
        if grainBuffer.count < count * channels { grainBuffer = [Float](repeating: 0, count: count * channels) }
        try grainBuffer.withUnsafeMutableBufferPointer { try source.read(from: position, count: count, into: $0.baseAddress!) }
    }

    /// `count` source frames from `position`, channels summed, into `out`.
    private func mono(from position: Int64, count: Int, into out: inout [Float]) throws {
        try readSource(from: position, count: count)
        if out.count < count { out = [Float](repeating: 0, count: count) }
        for i in 0..<count {
            var sum: Float = 0
            for c in 0..<channels { sum += grainBuffer[i * channels + c] }
            out[i] = sum
        }
    }
}

/// The recent stretch of a source, so that grains, which overlap and search around their
/// nominal position, read the source strictly forward instead of seeking back for every grain.
/// A jump back before what it holds (a render starting inside a stretched clip restarts the
/// chain) or far ahead reads the source from there.
private final class SourceHistory {
    private let inner: AudioSampleSource
    private let channels: Int
    /// Frames kept behind the latest read.
    private let keep: Int
    private var start: Int64 = 0
    private var frames: [Float] = []

    init(_ inner: AudioSampleSource, channels: Int, keep: Int) {
        self.inner = inner
        self.channels = channels
        self.keep = keep
    }

    private var end: Int64 { start + Int64(frames.count / channels) }

    func read(from position: Int64, count: Int, into out: UnsafeMutablePointer<Float>) throws {
        if position < start || position > end + Int64(keep) {
            frames.removeAll(keepingCapacity: true)
            start = position
        }
        let wanted = position + Int64(count)
        if wanted > end {
            let missing = Int(wanted - end), from = end, held = frames.count
            frames.append(contentsOf: repeatElement(0, count: missing * channels))
            try frames.withUnsafeMutableBufferPointer { try inner.read(from: from, count: missing, into: $0.baseAddress! + held) }
        }
        frames.withUnsafeBufferPointer { held in
            out.update(from: held.baseAddress! + Int(position - start) * channels, count: count * channels)
        }
        // Forget what lies well behind, a block at a time.
        let behind = Int(position - start) - keep
        if behind > 4 * keep {
            frames.removeFirst(behind * channels)
            start += Int64(behind)
        }
    }
}

/// ⌊a / b⌋ for b > 0.
private func floorDivision(_ a: Int64, _ b: Int64) -> Int64 { a >= 0 ? a / b : -((-a + b - 1) / b) }

