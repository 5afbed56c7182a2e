/// Plays the samples `[start, start + count)` of a source backwards: position `start + i`
/// is the source's sample `start + count − 1 − i`; positions outside the window are silence.
///
/// Reverse playback reads backwards, so the source is read in cells of a second counted
/// back from the window's end, one read a cell (one seek a second, not one a block). The reads
/// are the same whatever blocks the mix asks for, so the samples never depend on how a render
/// is cut (a segment's piece plays what the whole render plays). It keeps the cells the last
/// block needed (two, unless a block is longer than a second).
final class ReversedAudioSource: AudioSampleSource {
    private let source: AudioSampleSource
    private let start: Int64
    private let count: Int64
    private let channels: Int
    private let cellFrames: Int64
    /// Cells by their index (0 ends at the window's end), each the source's frames in it.
    private var cells: [Int64: [Float]] = [:]

    init(_ source: AudioSampleSource, start: Int64, count: Int64, channels: Int, rate: Int) {
        self.source = source
        self.start = start
        self.count = count
        self.channels = channels
        cellFrames = Int64(max(rate, 1))
    }

    func read(from position: Int64, count n: Int, into buffer: UnsafeMutablePointer<Float>) throws {
        buffer.update(repeating: 0, count: n * channels)
        // Output frame i is source frame mirror − i; keep the i whose source frame is in the window.
        let mirror = 2 * start + count - 1 - position
        let firstI = max(0, mirror - (start + count - 1)), endI = min(Int64(n), mirror - start + 1)
        guard firstI < endI else { return }
        try load(cell(of: mirror - firstI)...cell(of: mirror - (endI - 1)))
        for i in firstI..<endI {
            let frame = mirror - i, index = cell(of: frame)
            let from = Int(frame - cellStart(index)) * channels, to = Int(i) * channels
            cells[index]!.withUnsafeBufferPointer { samples in
                for c in 0..<channels { buffer[to + c] = samples[from + c] }
            }
        }
    }

    private func cell(of frame: Int64) -> Int64 { (start + count - 1 - frame) / cellFrames }
    private func cellStart(_ index: Int64) -> Int64 { max(start, start + count - (index + 1) * cellFrames) }

    /// Makes `cells` hold exactly the cells in `indices`, reading those it lacks.
    private func load(_ indices: ClosedRange<Int64>) throws {
        var loaded: [Int64: [Float]] = [:]
        for index in indices {
            if let kept = cells[index] {
                loaded[index] = kept
                continue
            }
            let first = cellStart(index), frames = Int(start + count - index * cellFrames - first)
            var samples = [Float](repeating: 0, count: frames * channels)
            try samples.withUnsafeMutableBufferPointer { try source.read(from: first, count: frames, into: $0.baseAddress!) }
            loaded[index] = samples
        }
        cells = loaded
    }
}
