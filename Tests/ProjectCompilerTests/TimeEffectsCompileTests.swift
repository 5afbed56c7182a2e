import CompositionGraph
import Foundation
import MediaTime
import ProjectCompiler
import ProjectFile
import TestSupport
import Testing

/// Speed ramps, reverse and freeze frames compiled into segments: the source time each
/// output frame shows, exactly.
@Suite struct TimeEffectsCompileTests {
    func compile(_ clips: String, fps: Int = 30) throws -> CompositionGraph {
        let yaml = """
        reel: 1
        output: { size: [640, 360], fps: \(fps) }
        media: { a: A.mp4 }
        video:
          - clips:
        \(clips)
        """
        let document = try DocumentLoader.load(text: yaml, name: MediaFactory.path("time-effects.yaml"))
        let graph = try ProjectPipeline.load(document, media: FakeMediaFacts.promo, fonts: FakeFonts()).graph
        #expect(graph.checkInvariants() == [])
        return graph
    }

    /// The source time output frame `m` shows on the first video track.
    func sourceTime(_ graph: CompositionGraph, frame m: Int64) -> MediaTime? {
        let t = graph.videoComposition.frameDuration * Rational(m)
        let track = graph.composition.tracks.first { $0.kind == .video }!
        return track.segment(at: t)?.sourceTime(at: t, frameDuration: graph.videoComposition.frameDuration)
    }

    @Test func aLinearRampShowsTheExactIntegralOfTheSpeedAtEveryFrame() throws {
        let graph = try compile("""
              - { media: a, from: 1s, to: 4s, speed: [{ at: 0s, value: 1 }, { at: 2s, value: 0.25 }] }
        """)
        // ∫ speed: τ − 3τ²/16 up to 2 s (1.25 s of source), then 0.25 a second: the other
        // 1.75 s of source take 7 s, so the clip lasts 9 s.
        #expect(graph.duration == MediaTime(seconds: 9))
        for m in Int64(0)..<270 {
            let tau = Rational(m, 30)
            let offset = m <= 60 ? tau - Rational(3, 16) * tau * tau : Rational(5, 4) + (tau - Rational(2)) * Rational(1, 4)
            #expect(sourceTime(graph, frame: m) == MediaTime(Rational(1) + offset), "frame \(m)")
        }
        // The clip's sound has the same pieces, each played at its own speed.
        let audio = try #require(graph.composition.tracks.first { $0.kind == .audio })
        let video = try #require(graph.composition.tracks.first { $0.kind == .video })
        #expect(audio.segments == video.segments)
        #expect(video.segments.count == 61) // a piece per frame of the ramp, one after it
    }

    @Test func anEasedRampIsIntegratedTheSameWayEveryTimeWithoutDrift() throws {
        let graph = try compile("""
              - { media: a, from: 0s, to: 6s, speed: [{ at: 0s, value: 2, ease: ease-in-out }, { at: 1s, value: 0.5 }] }
        """)
        // ease-in-out is symmetric: the eased second reads (2 + 0.5) / 2 = 1.25 s; the other
        // 4.75 s at 0.5 take 9.5 s.
        #expect(graph.duration == MediaTime(21, 2))
        var previous = MediaTime(-1, 1)
        for m in Int64(0)..<315 {
            let s = try #require(sourceTime(graph, frame: m))
            #expect(s > previous, "frame \(m) goes back")
            previous = s
        }
        // Inside the ramp: within a microsecond of the closed form (speed 2 → 0.5 on the CSS
        // ease-in-out curve, integrated by Simpson's rule); after it, exact again.
        #expect(try #require(sourceTime(graph, frame: 30)) == MediaTime(5, 4))
        #expect(try #require(sourceTime(graph, frame: 60)) == MediaTime(5, 4) + MediaTime(1, 2))
        for m in Int64(1)..<30 {
            // A reference by a far finer rule (20 000 midpoint steps).
            let x = Double(m) / 30, steps = 20_000
            var area = 0.0
            for k in 0..<steps { area += Easing.easeInOut.apply((Double(k) + 0.5) / Double(steps) * x) }
            let reference = 2 * x - 1.5 * area * x / Double(steps)
            let s = try #require(sourceTime(graph, frame: m)).value.doubleValue
            #expect(abs(s - reference) < 2e-6, "frame \(m): \(s), reference \(reference)")
        }
        #expect(try compile("""
              - { media: a, from: 0s, to: 6s, speed: [{ at: 0s, value: 2, ease: ease-in-out }, { at: 1s, value: 0.5 }] }
        """) == graph)
    }

    @Test func aReversedClipStartsOnTheLastFrameOfItsRange() throws {
        // The source (A.mp4) has 30 fps frames; the range is frames 30…89.
        let graph = try compile("      - { media: a, from: 1s, to: 3s, reverse: true }")
        let video = try #require(graph.composition.tracks.first { $0.kind == .video })
        #expect(video.segments.allSatisfy { $0.reversed })
        for m in Int64(0)..<60 {
            let s = try #require(sourceTime(graph, frame: m))
            // Frame m shows source frame 89 − m: a time in [that frame, the next).
            #expect(s >= MediaTime(89 - m, 30) && s < MediaTime(90 - m, 30), "frame \(m): \(s)")
        }
        let audio = try #require(graph.composition.tracks.first { $0.kind == .audio })
        #expect(audio.segments.allSatisfy { $0.reversed })
        let muted = try compile("      - { media: a, from: 1s, to: 3s, reverse: true, reverse_audio: mute }")
        #expect(!muted.composition.tracks.contains { $0.kind == .audio })
    }

    @Test func aFreezeFrameHoldsOneSourceTimeSilently() throws {
        let graph = try compile("""
              - { media: a, from: 0s, to: 1s }
              - { media: a, freeze: 2.5s, duration: 3s }
              - { media: a, freeze: end, duration: 1s }
        """)
        #expect(graph.duration == MediaTime(seconds: 5))
        for m in Int64(30)..<120 { #expect(sourceTime(graph, frame: m) == MediaTime(5, 2)) }
        for m in Int64(120)..<150 { #expect(sourceTime(graph, frame: m) == MediaTime(seconds: 12)) }
        let audio = try #require(graph.composition.tracks.first { $0.kind == .audio })
        #expect(audio.segments.compactMap(\.content).count == 1) // the first clip only
    }

    @Test func aRampedAndReversedClipPlaysTheRampFromTheEnd() throws {
        let graph = try compile("      - { media: a, from: 2s, to: 4s, reverse: true, speed: [{ at: 0s, value: 2 }, { at: 1s, value: 1 }] }")
        // 1.5 s of source in the first second, the other 0.5 s at speed 1.
        #expect(graph.duration == MediaTime(3, 2))
        let video = try #require(graph.composition.tracks.first { $0.kind == .video })
        #expect(video.segments.first?.timeMapping?.source.end == MediaTime(seconds: 4))
        #expect(video.segments.last?.timeMapping?.source.start == MediaTime(seconds: 2))
    }
}
