import CompositionGraph
import MediaTime

/// The mix of a range of the timeline, handed to a writer in blocks as the video advances, so
/// the muxer gets both streams in step. Sample-exact: sample n of the range is sample
/// `range.start × rate + n` of the timeline, whatever the calls' boundaries.
final class AudioFeed {
    private let mixer: AudioMixer
    private let rate: Int
    private let endSample: Int64
    private var nextSample: Int64
    private let blockSize: Int
    private let block: UnsafeMutablePointer<Float>
    private let write: (UnsafePointer<Float>, Int) throws -> Void

    init(graph: CompositionGraph, range: TimeRange, blockSize: Int, open: @escaping AudioMixer.SourceFactory,
         write: @escaping (UnsafePointer<Float>, Int) throws -> Void) {
        rate = graph.output.audio.sampleRate
        mixer = AudioMixer(graph: graph, sampleRate: rate, channels: graph.output.audio.channels, makeSource: open)
        nextSample = range.start.samplePosition(rate: rate)
        endSample = range.end.samplePosition(rate: rate)
        self.blockSize = blockSize
        block = .allocate(capacity: blockSize * graph.output.audio.channels)
        self.write = write
    }

    deinit { block.deallocate() }

    /// Mixes and writes the samples before timeline time `t` (at most to the range's end).
    func write(until t: MediaTime) throws {
        let end = min(endSample, t.samplePosition(rate: rate))
        while nextSample < end {
            let n = Int(min(Int64(blockSize), end - nextSample))
            try mixer.mix(from: nextSample, count: n, into: block)
            try write(block, n)
            nextSample += Int64(n)
        }
    }
}
