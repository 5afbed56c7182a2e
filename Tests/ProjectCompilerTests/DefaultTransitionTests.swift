import CompositionGraph
import Foundation
import MediaTime
import ProjectCompiler
import ProjectFile
import TestSupport
import Testing

/// A track's `default_transition` joins every two clips that touch, as if written between
/// them; a transition item or `transition: cut` says otherwise at one cut, a gap has none.
@Suite struct DefaultTransitionTests {
    func compile(_ text: String) throws -> CompositionGraph {
        let document = try DocumentLoader.load(text: "reel: 1\noutput: { size: [640, 360], fps: 30 }\nmedia: { a: A.mp4, m: music.mp3 }\n" + text,
                                               name: MediaFactory.path("default-transition.yaml"))
        let graph = try ProjectPipeline.load(document, media: FakeMediaFacts.promo, fonts: FakeFonts()).graph
        #expect(graph.checkInvariants() == [])
        return graph
    }

    /// (kind, start, end) of every transition instruction, in seconds.
    func transitions(_ graph: CompositionGraph) -> [String] {
        graph.videoComposition.instructions.flatMap { i in i.transitions.map { "\($0.kind) \(i.timeRange.start.seconds)-\(i.timeRange.end.seconds)" } }
    }

    @Test func everyCutButTheMarkedOneCrossfades() throws {
        let graph = try compile("""
            video:
              - default_transition: { kind: crossfade, duration: 0.5s }
                clips:
                  - { color: "#ff0000", duration: 2s }
                  - { media: a, duration: 2s }
                  - { transition: wipe-left, duration: 1s }
                  - { color: "#00ff00", duration: 2s }
                  - transition: cut
                  - { color: "#0000ff", duration: 2s }
                  - { gap: 1s }
                  - { color: "#ffffff", duration: 2s }
                  - { color: "#000000", duration: 2s }
            audio:
              - default_transition: { kind: crossfade, duration: 1s }
                clips:
                  - { media: m, duration: 3s }
                  - { media: m, from: 5s, duration: 3s }
            """)
        #expect(transitions(graph) == ["crossfade 1.5-2.0", "wipe-left 2.5-3.5", "crossfade 9.0-9.5"])
        // 2 + 2 + 2 + 2 + 1 + 2 + 2 − 0.5 − 1 − 0.5 = 11 s of video; the music: 3 + 3 − 1 = 5 s.
        #expect(graph.duration == MediaTime(seconds: 11))
        #expect(graph.audioMix.tracks.contains { $0.volume.keyframes.count > 2 })
    }

    @Test func aCutTakesNoDurationAndADefaultLongerThanAClipIsRefusedAtItsLine() throws {
        #expect(throws: ProjectError.self) {
            try compile("video:\n  - clips:\n      - { color: red, duration: 1s }\n      - { transition: cut, duration: 1s }\n      - { color: blue, duration: 1s }\n")
        }
        do {
            _ = try compile("video:\n  - default_transition: { kind: crossfade, duration: 1s }\n    clips:\n      - { color: red, duration: 2s }\n      - { color: blue, duration: 0.5s }\n")
            Issue.record("a default transition longer than a clip was accepted")
        } catch let error as ProjectError {
            #expect(error.diagnostics.map(\.message) == ["the crossfade transition lasts 1s but a neighbouring clip lasts only 1/2s"])
            #expect(error.diagnostics.first?.location.line == 5)
        }
    }
}
