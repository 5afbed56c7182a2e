import Testing
@testable import RenderEngine

/// A source like a decoder with a resampler: a read's first frames carry a warm-up error
/// that depends on where the read starts, so two reads of the same frame from different
/// starts differ. It counts its reads.
private final class WarmingSource: AudioSampleSource {
    let channels = 2
    private(set) var reads: [Int64] = []

    func read(from position: Int64, count: Int, into buffer: UnsafeMutablePointer<Float>) throws {
        reads.append(position)
        for i in 0..<count {
            let frame = position + Int64(i)
            let warmUp: Float = i < 32 ? Float(32 - i) * 1e-4 : 0
            for c in 0..<channels { buffer[i * channels + c] = Float(frame % 1000) / 1000 + Float(c) + warmUp }
        }
    }
}

struct ReversedAudioSourceTests {
    /// Reads `[from, from + total)` of a reversed window in blocks of the given sizes, in turn.
    private func play(blocks: [Int], from: Int64, total: Int) throws -> (samples: [Float], reads: Int) {
        let source = WarmingSource()
        let reversed = ReversedAudioSource(source, start: 10_000, count: 100_000, channels: 2, rate: 48_000)
        var out = [Float](repeating: .nan, count: total * 2)
        var done = 0, turn = 0
        while done < total {
            let n = min(blocks[turn % blocks.count], total - done)
            try out.withUnsafeMutableBufferPointer { try reversed.read(from: from + Int64(done), count: n, into: $0.baseAddress! + done * 2) }
            done += n
            turn += 1
        }
        return (out, source.reads.count)
    }

    @Test func theSamplesDoNotDependOnTheBlocksAskedFor() throws {
        let whole = try play(blocks: [1024], from: 0, total: 120_000)
        let cut = try play(blocks: [1600, 613, 1, 4000, 977], from: 0, total: 120_000)
        #expect(whole.samples == cut.samples)
        // A piece from the middle (a segment rendered on its own) plays what the whole plays there.
        let piece = try play(blocks: [800], from: 47_123, total: 30_000)
        #expect(Array(whole.samples[(47_123 * 2)..<(77_123 * 2)]) == piece.samples)
    }

    @Test func itPlaysTheWindowBackwardsWithOneReadASecond() throws {
        let played = try play(blocks: [1024], from: 0, total: 120_000)
        // Before the window's start and after its end: silence.
        #expect(played.samples[0..<(10_000 * 2)].allSatisfy { $0 == 0 })
        #expect(played.samples[(110_000 * 2)...].allSatisfy { $0 == 0 })
        // Position 10 000 + i is source frame 109 999 − i; away from a read's start there is no warm-up.
        for i: Int64 in [100, 5_000, 47_000, 99_000] {
            let frame = 109_999 - i
            #expect(played.samples[Int(10_000 + i) * 2] == Float(frame % 1000) / 1000)
        }
        // 100 000 frames at 48 kHz: three cells of a second and the rest, read once each.
        #expect(played.reads == 3)
    }
}
