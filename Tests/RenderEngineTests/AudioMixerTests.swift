import Foundation
import CompositionGraph
import MediaTime
import Testing
@testable import RenderEngine
import TestSupport

/// A source whose frame p carries the value `value(p)` on every channel, recording its reads.
final class RampSource: AudioSampleSource {
    let channels: Int
    let value: (Int64) -> Float
    var reads: [(position: Int64, count: Int)] = []

    init(channels: Int, value: @escaping (Int64) -> Float) {
        self.channels = channels
        self.value = value
    }

    func read(from position: Int64, count: Int, into buffer: UnsafeMutablePointer<Float>) throws {
        reads.append((position, count))
        for i in 0..<count { for c in 0..<channels { buffer[i * channels + c] = value(position + Int64(i)) } }
    }
}

@Suite struct AudioMixerTests {
    let ref = MediaReference.fake("m", path: "/m.wav", kind: .audio)

    func graph(segments: [Segment], volume: Animation = .constant(1), extraTrack: [Segment]? = nil) -> CompositionGraph {
        var tracks = [CompositionTrack(id: 1, kind: .audio, name: "audio 1", segments: segments)]
        var mix = [AudioMixTrack(trackID: 1, volume: volume)]
        if let extraTrack {
            tracks.append(CompositionTrack(id: 2, kind: .audio, name: "audio 2", segments: extraTrack))
            mix.append(AudioMixTrack(trackID: 2, volume: .constant(1)))
        }
        let vc = VideoComposition(renderSize: PixelSize(width: 16, height: 16), frameDuration: seconds(1, 30), background: .black, instructions: [])
        return CompositionGraph(composition: Composition(duration: seconds(4), tracks: tracks), videoComposition: vc,
                                audioMix: AudioMix(tracks: mix), overlays: [], fonts: [], output: .test)
    }

    func mixAll(_ mixer: AudioMixer, samples: Int) throws -> [Float] {
        var out = [Float](repeating: 0, count: samples * 2)
        // Odd block sizes, so segment edges fall inside blocks.
        var done = 0
        while done < samples {
            let n = min(1000, samples - done)
            try out.withUnsafeMutableBufferPointer { try mixer.mix(from: Int64(done), count: n, into: $0.baseAddress! + done * 2) }
            done += n
        }
        return out
    }

    @Test func aSegmentStartsAtTheRoundedSampleOfItsTimeWithItsSourceStart() throws {
        // At 1/3 s (sample 16000), playing the source from 1/7 s (sample round(48000/7) = 6857).
        let seg = Segment(target: TimeRange(start: seconds(1, 3), duration: seconds(1)),
                          content: .media(ref, sourceRange: TimeRange(start: seconds(1, 7), duration: seconds(1))))
        let source = RampSource(channels: 2) { Float($0) / 100_000 }
        var rates: [Int] = []
        let mixer = AudioMixer(graph: graph(segments: [seg]), sampleRate: 48000, channels: 2) { _, rate in rates.append(rate); return source }
        let out = try mixAll(mixer, samples: 70_000)
        #expect(rates == [48000])
        #expect(out[2 * 15_999] == 0)
        #expect(out[2 * 16_000] == Float(6857) / 100_000)
        #expect(out[2 * 16_001 + 1] == Float(6858) / 100_000)
        #expect(out[2 * 63_999] == Float(6857 + 47_999) / 100_000)
        #expect(out[2 * 64_000] == 0)
    }

    @Test func volumeRampsApplyPerSampleWithTheirEasing() throws {
        let seg = Segment(target: TimeRange(start: .zero, duration: seconds(2)),
                          content: .media(ref, sourceRange: TimeRange(start: .zero, duration: seconds(2))))
        let fade = Animation.ramp(from: 0, to: 0.5, over: TimeRange(start: seconds(1), duration: seconds(1)), ease: .easeIn)
        let mixer = AudioMixer(graph: graph(segments: [seg], volume: fade), sampleRate: 48000, channels: 2) { _, _ in
            RampSource(channels: 2) { _ in 0.5 }
        }
        let out = try mixAll(mixer, samples: 96_000)
        #expect(out[2 * 47_999] == 0)
        for s in [48_001, 60_000, 72_000, 95_999] {
            let expected = Float(0.5 * 0.5 * Easing.easeIn.apply(Double(s - 48_000) / 48_000))
            #expect(out[2 * s] == expected)
        }
    }

    @Test func speedTwoReadsAtHalfTheRateSoTheSegmentPlaysInHalfTheTime() throws {
        let seg = Segment(target: TimeRange(start: .zero, duration: seconds(1)),
                          content: .media(ref, sourceRange: TimeRange(start: seconds(1), duration: seconds(2))))
        let source = RampSource(channels: 2) { Float($0) / 100_000 }
        var rates: [Int] = []
        let mixer = AudioMixer(graph: graph(segments: [seg]), sampleRate: 48000, channels: 2) { _, rate in rates.append(rate); return source }
        let out = try mixAll(mixer, samples: 48_000)
        #expect(rates == [24000])
        #expect(out[0] == Float(24_000) / 100_000)
        #expect(source.reads.map(\.count).reduce(0, +) == 48_000)
    }

    /// On a `timeDomain` track, a segment at 1.5× is read at the output rate from its source
    /// start and time-stretched: a 440 Hz tone stays 440 Hz (on a `varispeed` track it is
    /// read at 32 kHz and becomes 660 Hz), and the segment still fills exactly its samples.
    @Test(arguments: [(TimePitchAlgorithm.timeDomain, 440.0, 48000), (.varispeed, 660.0, 32000)])
    func speedWithAndWithoutKeepingThePitch(timePitch: TimePitchAlgorithm, frequency: Double, readRate: Int) throws {
        let seg = Segment(target: TimeRange(start: seconds(1, 2), duration: seconds(2)),
                          content: .media(ref, sourceRange: TimeRange(start: seconds(1), duration: seconds(3))))
        var g = graph(segments: [seg])
        g.audioMix.tracks[0].timePitch = timePitch
        var rates: [Int] = []
        let mixer = AudioMixer(graph: g, sampleRate: 48000, channels: 2) { _, rate in
            rates.append(rate)
            return RampSource(channels: 2) { p in Float(0.25 * sin(2 * Double.pi * 440 * Double(p) / Double(rate))) }
        }
        let out = try mixAll(mixer, samples: 3 * 48000)
        #expect(rates == [readRate])
        // Silence before and after the segment's samples [24000, 120000).
        #expect(out[..<(2 * 24000)].allSatisfy { $0 == 0 } && out[(2 * 120_000)...].allSatisfy { $0 == 0 })
        var crossings: [Int] = []
        for i in 30_000..<114_000 where out[2 * (i - 1)] < 0 && out[2 * i] >= 0 { crossings.append(i) }
        let measured = Double(crossings.count - 1) * 48000 / Double(crossings.last! - crossings.first!)
        #expect(abs(measured - frequency) < 2, "\(timePitch): \(measured) Hz")
    }

    @Test func tracksSumAndLoudPeaksBendBelowFullScaleWithoutTouchingQuietOnes() throws {
        let loud = Segment(target: TimeRange(start: .zero, duration: seconds(1)),
                           content: .media(ref, sourceRange: TimeRange(start: .zero, duration: seconds(1))))
        let quiet = Segment(target: TimeRange(start: .zero, duration: seconds(2)),
                            content: .media(ref, sourceRange: TimeRange(start: .zero, duration: seconds(2))))
        let mixer = AudioMixer(graph: graph(segments: [loud], extraTrack: [quiet]), sampleRate: 48000, channels: 2) { _, _ in
            RampSource(channels: 2) { _ in 0.8 }
        }
        let out = try mixAll(mixer, samples: 96_000)
        #expect(out[100] > 0.95 && out[100] < 1)
        #expect(out[2 * 50_000] == 0.8)
    }

    @Test func sourcesAreReleasedOnceTheMixPassesTheirSegment() throws {
        let seg = Segment(target: TimeRange(start: .zero, duration: seconds(1, 10)),
                          content: .media(ref, sourceRange: TimeRange(start: .zero, duration: seconds(1, 10))))
        weak var weakSource: RampSource?
        let mixer = AudioMixer(graph: graph(segments: [seg]), sampleRate: 48000, channels: 2) { _, _ in
            let s = RampSource(channels: 2) { _ in 0.1 }
            weakSource = s
            return s
        }
        _ = try mixAll(mixer, samples: 6000)
        #expect(weakSource == nil)
    }
}
