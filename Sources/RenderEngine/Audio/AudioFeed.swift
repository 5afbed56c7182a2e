import CompositionGraph
import MediaTime

/// The mix of a range of the timeline, handed to a writer in blocks as the video advances, so
/// the muxer gets both streams in step. Sample-exact: sample n of the range is sample
/// `range.start × rate + n` of the timeline, whatever the calls' boundaries. With a
/// `Leveling`, the mix is not soft-limited but multiplied by the leveling's gain and passed
/// through a `TruePeakLimiter` (mixed ahead by its latency, so nothing is shifted), and what
/// is written is metered.
final class AudioFeed {
    private let mixer: AudioMixer
    private let rate: Int
    private let channels: Int
    private let endSample: Int64
    private var nextSample: Int64
    private let blockSize: Int
    private let block: UnsafeMutablePointer<Float>
    private let write: (UnsafePointer<Float>, Int) throws -> Void
    private let leveling: Leveling?
    private var limiter: TruePeakLimiter?
    /// What was written, when leveled.
    private(set) var meter: LoudnessMeter?

    init(graph: CompositionGraph, range: TimeRange, blockSize: Int, leveling: Leveling? = nil, open: @escaping AudioMixer.SourceFactory,
         write: @escaping (UnsafePointer<Float>, Int) throws -> Void) {
        rate = graph.output.audio.sampleRate
        channels = graph.output.audio.channels
        mixer = AudioMixer(graph: graph, sampleRate: rate, channels: channels, softLimits: leveling == nil, makeSource: open)
        nextSample = range.start.samplePosition(rate: rate)
        endSample = range.end.samplePosition(rate: rate)
        self.blockSize = blockSize
        block = .allocate(capacity: blockSize * channels)
        self.write = write
        self.leveling = leveling
        if leveling != nil { meter = LoudnessMeter(sampleRate: rate, channels: channels) }
    }

    deinit { block.deallocate() }

    /// Mixes and writes the samples before timeline time `t` (at most to the range's end).
    func write(until t: MediaTime) throws {
        let end = min(endSample, t.samplePosition(rate: rate))
        while nextSample < end {
            let n = Int(min(Int64(blockSize), end - nextSample))
            if let leveling {
                try leveledMix(from: nextSample, count: n, leveling)
                meter?.add(block, count: n)
            } else {
                try mixer.mix(from: nextSample, count: n, into: block)
            }
            try write(block, n)
            nextSample += Int64(n)
        }
    }

    /// The mix of `[start, start + count)` with the gain and the limiter into `block`.
    private func leveledMix(from start: Int64, count: Int, _ leveling: Leveling) throws {
        let limiter = try self.limiter ?? primedLimiter(at: start, leveling)
        self.limiter = limiter
        try mixer.mix(from: start + Int64(limiter.latency), count: count, into: block)
        for i in 0..<(count * channels) { block[i] *= leveling.gain }
        limiter.process(block, count: count)
    }

    /// A limiter that has taken in the `latency` frames from `start` on, so its next output is frame `start`.
    private func primedLimiter(at start: Int64, _ leveling: Leveling) throws -> TruePeakLimiter {
        let limiter = TruePeakLimiter(channels: channels, sampleRate: rate, ceiling: leveling.ceiling)
        var done = 0
        while done < limiter.latency {
            let n = min(blockSize, limiter.latency - done)
            try mixer.mix(from: start + Int64(done), count: n, into: block)
            for i in 0..<(n * channels) { block[i] *= leveling.gain }
            limiter.process(block, count: n)
            done += n
        }
        return limiter
    }
}

/// How a mix is brought to a loudness target: one static gain, then a true-peak limiter at
/// `ceiling` (linear).
struct Leveling {
    var gain: Float
    var ceiling: Float
}
