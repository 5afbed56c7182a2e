/// Plays the samples `[start, start + count)` of a source backwards: position `start + i`
/// is the source's sample `start + count − 1 − i`; positions outside the window are silence.
///
/// Reverse playback reads backwards, so the source is read in chunks of a second, each
/// ending where the previous one began (one seek a second, not one a block); the chunk is
/// the memory it keeps (a second of samples, or one block when a block is longer).
final class ReversedAudioSource: AudioSampleSource {
    private let source: AudioSampleSource
    private let start: Int64
    private let count: Int64
    private let channels: Int
    private let chunkFrames: Int
    private var chunk: [Float] = []
    private var chunkStart: Int64 = 0
    private var chunkCount = 0

    init(_ source: AudioSampleSource, start: Int64, count: Int64, channels: Int, rate: Int) {
        self.source = source
        self.start = start
        self.count = count
        self.channels = channels
        chunkFrames = max(rate, 1)
    }

    func read(from position: Int64, count n: Int, into buffer: UnsafeMutablePointer<Float>) throws {
        buffer.update(repeating: 0, count: n * channels)
        // Output frame i is source frame mirror − i; keep the i whose source frame is in the window.
        let mirror = 2 * start + count - 1 - position
        let firstI = max(0, mirror - (start + count - 1)), endI = min(Int64(n), mirror - start + 1)
        guard firstI < endI else { return }
        let low = mirror - (endI - 1), high = mirror - firstI + 1
        try load(low, high)
        for i in firstI..<endI {
            let from = Int(mirror - i - chunkStart) * channels, to = Int(i) * channels
            for c in 0..<channels { buffer[to + c] = chunk[from + c] }
        }
    }

    /// Makes the chunk hold source frames `[low, high)`.
    private func load(_ low: Int64, _ high: Int64) throws {
        if low >= chunkStart && high <= chunkStart + Int64(chunkCount) { return }
        let first = max(start, min(low, high - Int64(chunkFrames)))
        chunkCount = Int(high - first)
        chunkStart = first
        if chunk.count < chunkCount * channels { chunk = [Float](repeating: 0, count: chunkCount * channels) }
        try chunk.withUnsafeMutableBufferPointer { try source.read(from: first, count: chunkCount, into: $0.baseAddress!) }
    }
}
