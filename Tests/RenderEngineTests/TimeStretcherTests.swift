import Foundation
import MediaTime
import Testing
@testable import RenderEngine

/// WSOLA: a sped-up or slowed-down tone keeps its pitch and its level, lands where the speed
/// says, and reads the same samples wherever a render starts.
@Suite struct TimeStretcherTests {
    static let rate = 48000

    /// A stereo tone of `frequency` Hz up to source sample `switchAt`, `after` Hz from there.
    static func tone(_ frequency: Double, switchingTo after: Double? = nil, at switchAt: Int64 = .max) -> RampSource {
        RampSource(channels: 2) { p in
            let f = p < switchAt ? frequency : (after ?? frequency)
            return Float(0.5 * sin(2 * Double.pi * f * Double(p) / Double(rate)))
        }
    }

    static func stretch(_ source: AudioSampleSource, speed: Rational, frames: Int, from start: Int64 = 0) throws -> [Float] {
        let stretcher = TimeStretcher(source, channels: 2, sampleRate: rate, origin: 4800, speed: speed)
        var out = [Float](repeating: 0, count: frames * 2)
        // In mixer-sized blocks, as a render reads.
        var done = 0
        while done < frames {
            let n = min(1024, frames - done)
            try out.withUnsafeMutableBufferPointer { try stretcher.read(from: 4800 + start + Int64(done), count: n, into: $0.baseAddress! + 2 * done) }
            done += n
        }
        return out
    }

    /// Frequency from upward zero crossings of the left channel over `range` frames.
    static func frequency(_ samples: [Float], _ range: Range<Int>) -> Double {
        var crossings: [Int] = []
        for i in range.dropFirst() where samples[2 * (i - 1)] < 0 && samples[2 * i] >= 0 { crossings.append(i) }
        guard crossings.count > 1 else { return 0 }
        return Double(crossings.count - 1) * Double(rate) / Double(crossings.last! - crossings.first!)
    }

    static func rms(_ samples: [Float], _ range: Range<Int>) -> Double {
        (range.reduce(0.0) { $0 + Double(samples[2 * $1]) * Double(samples[2 * $1]) } / Double(range.count)).squareRoot()
    }

    @Test(arguments: [Rational(3, 2), Rational(2), Rational(3, 4), Rational(1, 2), Rational(5, 4)])
    func aToneKeepsItsPitchAndLevel(speed: Rational) throws {
        let out = try Self.stretch(Self.tone(440), speed: speed, frames: 2 * Self.rate)
        let f = Self.frequency(out, 4800..<(2 * Self.rate))
        #expect(abs(f - 440) < 2, "at \(speed)×: \(f) Hz")
        // A steady level: every 10 ms of the output within 5 % of the tone's RMS (0.5/√2).
        let expected = 0.5 / 2.0.squareRoot()
        let levels = stride(from: 4800, to: 2 * Self.rate - 480, by: 480).map { Self.rms(out, $0..<($0 + 480)) }
        #expect(levels.allSatisfy { abs($0 - expected) / expected < 0.05 }, "at \(speed)×: levels \(levels.min()!)…\(levels.max()!)")
    }

    @Test(arguments: [Rational(3, 2), Rational(1, 2), Rational(2)])
    func contentLandsWhereTheSpeedSays(speed: Rational) throws {
        // The tone changes from 440 to 880 Hz 1 s after the origin, which the output must
        // reach 1 s / speed after its start. A grain (40 ms of source) plus the search radius
        // (10 ms) blur the change over that much source time, stretched by 1 / speed.
        let out = try Self.stretch(Self.tone(440, switchingTo: 880, at: 4800 + 48000), speed: speed, frames: 4 * Self.rate)
        let expected = Int((Rational(48000) / speed).rounded)
        let blur = Int((Rational(1920 + 480) / speed).rounded), window = 3360
        let before = Self.frequency(out, (expected - blur - window)..<(expected - blur))
        let after = Self.frequency(out, (expected + blur)..<(expected + blur + window))
        #expect(abs(before - 440) < 2 && abs(after - 880) < 2, "at \(speed)×: \(before) Hz before, \(after) Hz after")
    }

    /// Grains overlap and search around their position, but the source is read strictly
    /// forward, each sample once (a decoder behind it never seeks back).
    @Test(arguments: [Rational(3, 2), Rational(1, 2)])
    func theSourceIsReadForwardOnly(speed: Rational) throws {
        let source = Self.tone(440)
        _ = try Self.stretch(source, speed: speed, frames: 3 * Self.rate)
        let reads = source.reads
        #expect(reads.count > 10)
        for (a, b) in zip(reads, reads.dropFirst()) {
            #expect(b.position == a.position + Int64(a.count), "read at \(b.position) after \(a.position)+\(a.count)")
        }
    }

    @Test func readingFromAnyPositionGivesTheSameSamples() throws {
        let speed = Rational(3, 2)
        let whole = try Self.stretch(Self.tone(440, switchingTo: 523, at: 60000), speed: speed, frames: 3 * Self.rate)
        for start in [1, 959, 30_000, 61_439, 100_000] {
            let part = try Self.stretch(Self.tone(440, switchingTo: 523, at: 60000), speed: speed, frames: 5000, from: Int64(start))
            #expect(part == Array(whole[(2 * start)..<(2 * start + 10000)]), "from output sample \(start)")
        }
    }
}
