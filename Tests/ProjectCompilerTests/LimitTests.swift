import CompositionGraph
import Foundation
import MediaTime
import ProjectCompiler
import ProjectFile
import TestSupport
import Testing

/// Long but legitimate projects work; the limits (ProjectLimits, the fixtures absurd-*.yaml)
/// refuse only what is beyond them. Also the compiler bugs the fuzzer found.
@Suite struct LimitTests {
    func load(_ text: String) throws(ProjectError) -> ProjectPipeline.Loaded {
        let document = try DocumentLoader.load(text: text, name: repositoryRoot.appendingPathComponent("Examples/limits.yaml").path)
        return try ProjectPipeline.load(document, media: FakeMediaFacts.promo, fonts: FakeFonts())
    }

    @Test func aTenHourStillCompiles() throws {
        let graph = try load("""
            reel: 1
            output: { size: [1920, 1080], fps: 30 }
            media: { logo: logo.png }
            video:
              - clips:
                  - media: logo
                    duration: 10h
            """).graph
        #expect(graph.duration == MediaTime(seconds: 36_000))
        #expect(graph.checkInvariants() == [])
    }

    @Test func timesUpToTheLimitAreAllowed() throws {
        let graph = try load("""
            reel: 1
            output: { size: [640, 360], fps: "30000/1001", duration: 24h }
            video:
              - clips:
                  - color: black
                    duration: "23:59:59.999999"
                  - color: white
                    duration: 0.000001s
            """).graph
        #expect(graph.duration == ProjectLimits.maxTime)
        #expect(graph.checkInvariants() == [])
        // Frame counts and timecode at an NTSC rate are exact, whatever their decimals.
        let frames = try load("""
            reel: 1
            output: { size: [640, 360], fps: 29.97 }
            video:
              - clips:
                  - color: black
                    duration: 1001f
                  - color: white
                    duration: "00:00:01:07"
            """).graph
        #expect(frames.duration == MediaTime(Rational(1001 + 37) * Rational(1001, 30000)))
    }

    @Test func theLargestOutputFrameIsAllowed() throws {
        let graph = try load("reel: 1\noutput: { size: [7680, 4320], fps: 1000 }\nvideo: [{clips: [{color: black, duration: 1f}]}]\n").graph
        #expect(graph.videoComposition.renderSize == PixelSize(width: 7680, height: 4320))
        let wide = try load("reel: 1\noutput: { size: [16384, 2024], fps: 25 }\nvideo: [{clips: [{color: black, duration: 1s}]}]\n").graph
        #expect(wide.videoComposition.renderSize == PixelSize(width: 16384, height: 2024))
        let error = #expect(throws: ProjectError.self) { try load("reel: 1\noutput: { size: [7682, 4320], fps: 25 }\nvideo: [{clips: [{color: black, duration: 1s}]}]\n") }
        #expect(error?.diagnostics.first?.message.contains("33177600 pixels in all (8K UHD, 7680x4320)") == true)
        #expect(error?.diagnostics.first?.location.line == 2)
    }

    /// Found by the fuzzer: a clip entering with a transition (its audio ramps up), then plain
    /// clips on the same audio lane, gave a volume whose constant parts went back to time 0.
    @Test func plainClipsAfterATransitionKeepTheMixInOrder() throws {
        var text = """
            reel: 1
            output: { size: [640, 360], fps: "30000/1001" }
            media: { clip: A.mp4 }
            video:
              - clips:
                  - color: "#202020"
                    duration: 1s
                  - transition: crossfade
                    duration: 12f

            """
        for _ in 0..<4 { text += "      - media: clip\n        from: \"00:00:01:00\"\n        to: \"00:00:04:00\"\n" }
        let graph = try load(text).graph
        #expect(graph.checkInvariants() == [])
        let volume = try #require(graph.audioMix.tracks.first?.volume)
        #expect(volume.value(at: MediaTime(seconds: 5)) == 1)
    }

    /// The two transitions of a clip may together fill it exactly (its neighbours then touch
    /// on their shared lane); a little more is refused (Fixtures/invalid/transitions-longer-than-clip.yaml).
    @Test func transitionsMayTogetherFillAClip() throws {
        let graph = try load("""
            reel: 1
            output: { size: [640, 360], fps: 25 }
            video:
              - clips:
                  - { color: black, duration: 2s }
                  - { transition: crossfade, duration: 0.25s }
                  - { color: white, duration: 0.5s }
                  - { transition: wipe-left, duration: 0.25s }
                  - { color: red, duration: 2s }
            """).graph
        #expect(graph.checkInvariants() == [])
        #expect(graph.duration == MediaTime(4, 1))
    }

    /// Found by the fuzzer: a 600 000-character media name made "did you mean" compare it with
    /// every media name (3 s); names are at most 256 characters (schema).
    @Test func aHugeMediaNameIsRefusedQuickly() throws {
        let name = String(repeating: "x", count: 600_000)
        let start = threadCPUSeconds()
        let error = #expect(throws: ProjectError.self) {
            try load("reel: 1\noutput: { size: [640, 360], fps: 25 }\nmedia: { a: A.mp4 }\nvideo:\n  - clips:\n      - media: \"\(name)\"\n        duration: 1s\n")
        }
        #expect(threadCPUSeconds() - start < 0.5)
        #expect(error?.diagnostics.map(\.location.line) == [6, 6])
        #expect(error?.diagnostics.map(\.severity) == [.error, .note])
        #expect(error?.diagnostics.first?.message.contains("256") == true, "\(error?.diagnostics.first?.message.prefix(200) ?? "")")
    }
}
