import CompositionGraph
import Foundation
import Looks
import MediaTime
import ProjectCompiler
import ProjectFile
import TestSupport
import Testing

/// `enter:`, `motion:` and `backdrop:` are written as ordinary keyframes and layers: the graph
/// holds what a project spelling them out would hold.
@Suite struct NamedAnimationTests {
    func load(_ text: String) throws(ProjectError) -> ProjectPipeline.Loaded {
        let document = try DocumentLoader.load(text: "reel: 1\noutput: { size: [640, 360], fps: 30 }\nmedia: { a: A.mp4, logo: logo.png }\n" + text,
                                               name: MediaFactory.path("named-animations.yaml"))
        return try ProjectPipeline.load(document, media: FakeMediaFacts.promo, fonts: FakeFonts())
    }

    func frames(_ animation: Animation) -> [String] { animation.keyframes.map { "\($0.value)@\($0.time.seconds)" } }

    @Test func entrancesAreKeyframes() throws {
        let graph = try load("""
            video: [{ clips: [{ media: a, duration: 4s }] }]
            overlays:
              - { text: Up, at: 1s, duration: 2s, enter: slide-up }
              - { text: Pop, at: 1s, duration: 2s, scale: 2, enter: { kind: pop, duration: 0.4s } }
              - { text: Fade, at: 1s, duration: 2s, enter: fade }
            """).graph
        let (up, pop, fade) = (graph.overlays[0], graph.overlays[1], graph.overlays[2])
        // From half its height lower (anchor 0.5 → 0), fading in, over 0.5 s.
        #expect(frames(up.anchorY) == ["0.0@1.0", "0.5@1.5"])
        #expect(up.anchorY.keyframes.first?.ease == .easeOut)
        #expect(frames(up.opacity) == ["0.0@1.0", "1.0@1.5"])
        #expect(frames(pop.scale).map { $0 } == ["1.2@1.0", "2.12@1.28", "2.0@1.4"])
        #expect(frames(pop.opacity) == ["0.0@1.0", "1.0@1.2"])
        #expect(frames(fade.opacity) == ["0.0@1.0", "1.0@1.5"])
    }

    @Test func typewriterShowsOneMoreCharacterAtATime() throws {
        let graph = try load("""
            video: [{ clips: [{ media: a, duration: 4s }] }]
            overlays:
              - { text: "Héllo", at: 1s, duration: 2s, enter: { kind: typewriter, duration: 1s } }
            """).graph
        #expect(graph.overlays.map { $0.content.shownText ?? "" } == ["H", "Hé", "Hél", "Héll", "Héllo"])
        #expect(graph.overlays.map { $0.timeRange.start.value } == [Rational(1), Rational(6, 5), Rational(7, 5), Rational(8, 5), Rational(9, 5)])
        #expect(graph.overlays.last?.timeRange.end == MediaTime(seconds: 3))
    }

    @Test func kenBurnsZoomsAcrossTheWholeClip() throws {
        let graph = try load("""
            video: [{ clips: [{ media: logo, duration: 3s, motion: ken-burns }] }]
            """).graph
        let layer = try #require(graph.videoComposition.instructions.first?.layers.first)
        #expect(frames(layer.transform.scaleX) == ["1.0@0.0", "1.15@3.0"])
        #expect(frames(layer.transform.positionX) == ["320.0@0.0", "310.4@3.0"])
    }

    @Test func aNamedAnimationAndKeyframesOfTheSameValueAreAnError() throws {
        let error = #expect(throws: ProjectError.self) {
            try load("""
                video: [{ clips: [{ media: logo, duration: 3s, motion: ken-burns, transform: { scale: 2 } }] }]
                overlays:
                  - { text: Pop, duration: 2s, scale: [{ at: 0, value: 1 }, { at: 1s, value: 2 }], enter: pop }
                  - { rect: true, size: [10, 10], duration: 2s, enter: typewriter }
                """)
        }
        let messages = error?.diagnostics.map(\.message) ?? []
        #expect(messages.count == 3, "\(messages)")
        #expect(messages.contains { $0.hasPrefix("motion: ken-burns moves the clip's transform") })
        #expect(messages.contains { $0.hasPrefix("enter: pop animates scale") })
        #expect(messages.contains { $0.hasPrefix("enter: typewriter types text") })
    }

    @Test func aBackdropIsALayerUnderTheClipWithItsTimingAndTransitions() throws {
        let graph = try load("""
            video:
              - clips:
                  - { media: a, duration: 2s, backdrop: blur }
                  - { transition: crossfade, duration: 1s }
                  - { media: a, duration: 2s, backdrop: "#203040" }
                  - { media: a, duration: 2s, backdrop: logo }
                  - { media: a, duration: 2s }
            """).graph
        let names = graph.composition.tracks.map(\.name)
        #expect(names.prefix(2) == ["backdrop of video 1 A", "backdrop of video 1 B"])
        // In the crossfade, four layers: both clips, each over its backdrop, which fade as they do.
        let crossfade = try #require(graph.videoComposition.instructions.first { $0.timeRange.start == MediaTime(seconds: 1) })
        #expect(crossfade.layers.count == 4)
        let backdrops = crossfade.layers.filter { [1, 2].contains($0.trackID) }
        #expect(backdrops.allSatisfy { $0.fit == Fit.cover })
        #expect(backdrops.contains { $0.filters.contains { $0.look == .blur } })
        let (clips, unders) = (crossfade.layers.filter { ![1, 2].contains($0.trackID) }, backdrops)
        #expect(Set(clips.map { frames($0.opacity) }) == Set(unders.map { frames($0.opacity) }))
        let segments = graph.composition.tracks.prefix(2).flatMap(\.segments).map { "\($0.content)" }
        #expect(segments.contains { $0.contains("#203040") })
        #expect(segments.contains { $0.contains("logo") })
    }

    @Test func aBackdropNamingNoImageIsAnErrorAtTheBackdrop() throws {
        let error = #expect(throws: ProjectError.self) {
            try load("video: [{ clips: [{ media: a, duration: 2s, backdrop: logoo }, { media: a, duration: 2s, backdrop: a }] }]\n")
        }
        #expect(error?.diagnostics.map(\.message) == ["unknown media 'logoo'", "'a' is a video file, which cannot be used here"])
        #expect(error?.diagnostics.map(\.location.column) == [55, 100])
    }
}
