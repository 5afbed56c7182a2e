import Foundation
@testable import MediaIO
import MediaTime
import Testing
import TestSupport

/// Audio with single-sample clicks at known positions of a 44.1 kHz mono signal.
enum Clicks {
    static let rate = 44100
    static let positions = [4410, 30001, 70007, 100000]
    static var source: [String] {
        let expression = positions.map { "eq(n\\,\($0))" }.joined(separator: "+")
        return ["-f", "lavfi", "-i", "aevalsrc=exprs='if(\(expression)\\,0.9\\,0)':s=\(rate):d=3"]
    }

    static func file(_ name: String, _ codec: [String]) throws -> String {
        try MediaFactory.file(name, source + codec)
    }

    /// Output sample positions of peaks above half of `level` (the highest sample of each click).
    static func peaks(in samples: [Float], channels: Int, level: Float = 0.3) -> [Int] {
        var peaks: [Int] = []
        var i = 0
        let count = samples.count / channels
        while i < count {
            if abs(samples[i * channels]) > level / 2 {
                var best = i
                var j = i
                while j < min(count, i + 200) {
                    if abs(samples[j * channels]) > abs(samples[best * channels]) { best = j }
                    j += 1
                }
                peaks.append(best)
                i = j
            } else {
                i += 1
            }
        }
        return peaks
    }

    /// Where click `p` (a 44.1 kHz sample) lands at `rate`, relative to output sample `start`.
    static func expected(_ p: Int, rate: Int, start: Int64) -> Int {
        Int((Rational(Int64(p) * Int64(rate), Int64(Clicks.rate)).rounded) - start)
    }
}

@Suite struct AudioReaderTests {
    @Test(arguments: [44100, 48000])
    func clicksLandWithinOneSampleAtEveryOffset(rate: Int) throws {
        let path = try Clicks.file("clicks.wav", ["-c:a", "pcm_s16le"])
        let shared = try AudioReader(path: path, sampleRate: rate, channels: 2)
        for offset in [MediaTime.zero, MediaTime(1, 20), MediaTime(1, 3), MediaTime(1001, 1000), MediaTime(7, 5), MediaTime(1, 10)] {
            let range = TimeRange(start: offset, duration: MediaTime(3, 2))
            let fresh = try AudioReader(path: path, sampleRate: rate, channels: 2)
            for reader in [fresh, shared] { // a fresh reader decodes from the start; the shared one seeks
                let samples = try reader.read(range: range)
                #expect(samples.count == 2 * 3 * rate / 2)
                let start = offset.samplePosition(rate: rate)
                let expected = Clicks.positions.map { Clicks.expected($0, rate: rate, start: start) }
                    .filter { $0 >= 0 && $0 < 3 * rate / 2 }
                let found = Clicks.peaks(in: samples, channels: 2)
                #expect(found.count == expected.count, "offset \(offset): \(found) vs \(expected)")
                for (f, e) in zip(found, expected) { #expect(abs(f - e) <= 1, "offset \(offset) at \(rate) Hz: click at \(f), expected \(e)") }
                // Both channels carry the mono source.
                #expect(stride(from: 0, to: samples.count, by: 2).allSatisfy { samples[$0] == samples[$0 + 1] })
            }
        }
        #expect(shared.seekCount > 0)
    }

    /// Encoder delay (AAC 1024/2112, MP3 576+decoder delay, Opus 312) would shift clicks by hundreds of samples.
    @Test(arguments: [("clicks.m4a", ["-c:a", "aac", "-b:a", "192k"]),
                      ("clicks.mp3", ["-c:a", "libmp3lame", "-b:a", "192k"]),
                      ("clicks.opus", ["-c:a", "libopus", "-b:a", "192k"]),
                      ("clicks.mp4", ["-f", "lavfi", "-i", "color=s=64x64:r=25:d=3", "-c:v", "libx264", "-c:a", "aac", "-shortest"])])
    func primingDoesNotShiftAudio(name: String, codec: [String]) throws {
        let path = try Clicks.file(name, codec)
        let reader = try AudioReader(path: path, sampleRate: 48000, channels: 1)
        let samples = try reader.read(range: TimeRange(start: .zero, duration: MediaTime(seconds: 3)))
        let expected = Clicks.positions.map { Clicks.expected($0, rate: 48000, start: 0) }
        let found = Clicks.peaks(in: samples, channels: 1, level: 0.2)
        #expect(found.count == expected.count, "\(name): \(found) vs \(expected)")
        for (f, e) in zip(found, expected) { #expect(abs(f - e) <= 3, "\(name): click at \(f), expected \(e)") }
    }

    @Test func sequentialReadsTileWithoutSeeking() throws {
        let path = try Clicks.file("clicks.wav", ["-c:a", "pcm_s16le"])
        let whole = try AudioReader(path: path, sampleRate: 48000, channels: 2).read(range: TimeRange(start: .zero, duration: MediaTime(seconds: 3)))
        let reader = try AudioReader(path: path, sampleRate: 48000, channels: 2)
        var pieces: [Float] = []
        let frame = MediaTime(1001, 30000)
        var k: Int64 = 0
        // Consecutive video-frame-long ranges, tiled by sample position so none overlaps.
        while MediaTime.frame(k, duration: frame) < MediaTime(seconds: 3) {
            let a = MediaTime.frame(k, duration: frame).samplePosition(rate: 48000)
            let b = min(MediaTime.frame(k + 1, duration: frame).samplePosition(rate: 48000), 144_000)
            var chunk = [Float](repeating: 1, count: Int(b - a) * 2)
            try chunk.withUnsafeMutableBufferPointer { try reader.read(from: a, count: Int(b - a), into: $0) }
            pieces += chunk
            k += 1
        }
        #expect(reader.seekCount == 0)
        #expect(pieces == whole)
    }

    @Test func countIsExactAndBeyondTheEndIsSilence() throws {
        let path = try Clicks.file("clicks.wav", ["-c:a", "pcm_s16le"])
        let reader = try AudioReader(path: path, sampleRate: 48000, channels: 2)
        #expect(try reader.read(range: TimeRange(start: MediaTime(1, 3), duration: MediaTime(1, 3))).count == 2 * 16000)
        #expect(try reader.read(range: TimeRange(start: MediaTime(1, 7), duration: MediaTime(1, 30))).count == 2 * 1600)
        let tail = try reader.read(range: TimeRange(start: MediaTime(29, 10), duration: MediaTime(1, 1)))
        #expect(tail.count == 96000)
        #expect(tail[(20000)...].allSatisfy { $0 == 0 }) // after 3 s
    }

    @Test func surroundDownmixesWithTheStandardMatrix() throws {
        // Constant levels per channel of 5.1 (FL FR FC LFE BL BR).
        let path = try MediaFactory.file("levels51.wav", ["-f", "lavfi", "-i", "aevalsrc=exprs=0.1|0.2|0.3|0.4|0.05|0.15:c=5.1:s=48000:d=1", "-c:a", "pcm_f32le"])
        let stereo = try AudioReader(path: path, sampleRate: 48000, channels: 2).read(range: TimeRange(start: MediaTime(1, 2), duration: MediaTime(1, 100)))
        let c = 0.5.squareRoot()
        let left = 0.1 + c * 0.3 + c * 0.05, right = 0.2 + c * 0.3 + c * 0.15 // LFE dropped
        #expect(stride(from: 0, to: stereo.count, by: 2).allSatisfy { abs(Double(stereo[$0]) - left) < 1e-5 && abs(Double(stereo[$0 + 1]) - right) < 1e-5 })
    }

    @Test func stereoToMonoAverages() throws {
        let path = try MediaFactory.file("levels2.wav", ["-f", "lavfi", "-i", "aevalsrc=exprs=0.2|0.6:c=stereo:s=48000:d=1", "-c:a", "pcm_f32le"])
        let mono = try AudioReader(path: path, sampleRate: 48000, channels: 1).read(range: TimeRange(start: .zero, duration: MediaTime(1, 10)))
        #expect(mono.allSatisfy { abs($0 - 0.4) < 1e-6 })
    }
}
