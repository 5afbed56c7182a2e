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

    @Test func typewriterTypesALetterAtATimeInOneLayer() throws {
        let graph = try load("""
            video: [{ clips: [{ media: a, duration: 4s }] }]
            overlays:
              - { text: "Héllo", at: 1s, duration: 2s, enter: { kind: typewriter, duration: 1s } }
            """).graph
        #expect(graph.overlays.count == 1 && graph.overlays[0].content.shownText == "Héllo")
        let typing = try #require(graph.overlays[0].textUnits?.enter)
        #expect(typing.by == .letter && typing.pace == .spread(seconds(1)) && typing.time == seconds(1) && !typing.reversed)
        // Five letters in 1 s: the third appears at 1.4 s, the last at 1.8 s.
        #expect(typing.poses(count: 5, at: MediaTime(Rational(7, 5))).map(\.opacity) == [1, 1, 1, 0, 0])
        #expect(graph.overlays[0].opacity.isConstant, "the layer itself does not fade")
    }

    @Test func aTextEntersAWordAtATime() throws {
        let graph = try load("""
            video: [{ clips: [{ media: a, duration: 4s }] }]
            overlays:
              - { text: "Big news today", at: 1s, duration: 3s, enter: { kind: slide-up, by: word, stagger: 0.04s, duration: 0.4s }, exit: fade }
            """).graph
        let o = graph.overlays[0]
        let words = try #require(o.textUnits?.enter)
        #expect(words.by == .word && words.pace == .stagger(MediaTime(Rational(1, 25)), each: MediaTime(Rational(2, 5))) && words.time == seconds(1))
        // Each word from half its height below, fading in; the whole layer keeps its anchor and only fades out.
        #expect(frames(words.move.shiftY) == ["0.5@0.0", "0.0@1.0"] && words.move.shiftY.keyframes[0].ease == .easeOut)
        #expect(frames(words.move.opacity) == ["0.0@0.0", "1.0@1.0"])
        #expect(o.anchorY.isConstant && frames(o.opacity) == ["1.0@3.5", "0.0@4.0"])
        #expect(o.textUnits?.exit == nil)
        // Three words: 0.4 + 2 × 0.04 s.
        #expect(words.length(count: 3) == MediaTime(Rational(12, 25)))
    }

    @Test func aCaptionPageEntersAndLeavesByUnit() throws {
        let graph = try load("""
            video: [{ clips: [{ media: a, duration: 4s }] }]
            captions:
              - cues: [{ at: 0.5s, to: 2.5s, text: "Hello big world" }]
                style: { enter: { kind: pop, by: word, stagger: 0.1s }, exit: fade }
            """).graph
        let layers = graph.overlays.filter { if case .caption = $0.content { true } else { false } }
        #expect(!layers.isEmpty)
        for layer in layers {
            let motion = try #require(layer.textUnits)
            #expect(motion.enter?.by == .word && motion.enter?.time == MediaTime(Rational(1, 2)))
            #expect(motion.enter?.pace == .stagger(MediaTime(Rational(1, 10)), each: MediaTime(Rational(1, 2))))
            // Without by, the page leaves as one.
            #expect(motion.exit?.by == .whole && motion.exit?.time == MediaTime(Rational(5, 2)))
        }
    }

    @Test func exitsMirrorEntrancesAtTheEnd() throws {
        let graph = try load("""
            video: [{ clips: [{ media: a, duration: 4s }] }]
            overlays:
              - { text: Up, at: 1s, duration: 2s, exit: slide-up }
              - { text: Pop, at: 1s, duration: 2s, scale: 2, exit: { kind: pop, duration: 0.4s } }
              - { text: Both, at: 1s, duration: 2s, enter: grow, exit: shrink }
            """).graph
        let (up, pop, both) = (graph.overlays[0], graph.overlays[1], graph.overlays[2])
        // Leaving upwards: the anchor goes to the box's bottom edge (the box ends half its height higher), fading out.
        #expect(frames(up.anchorY) == ["0.5@2.5", "1.0@3.0"])
        #expect(up.anchorY.keyframes.first?.ease == .easeIn)
        #expect(frames(up.opacity) == ["1.0@2.5", "0.0@3.0"])
        #expect(frames(pop.scale) == ["2.0@2.6", "2.12@2.72", "1.2@3.0"])
        #expect(frames(pop.opacity) == ["1.0@2.8", "0.0@3.0"])
        #expect(frames(both.scale) == ["0.0@1.0", "1.0@1.5", "1.0@2.5", "0.0@3.0"])
        #expect(both.scale.keyframes.map(\.ease) == [.easeOut, .linear, .easeIn, .linear])
    }

    @Test func aSlideBeyondTheFrameStartsAndEndsOutsideIt() throws {
        let graph = try load("""
            video: [{ clips: [{ media: a, duration: 4s }] }]
            overlays:
              - { text: In, position: [100, 50], duration: 2s, enter: { kind: slide-left, from: frame }, exit: { kind: slide-down, to: frame } }
            """).graph
        let o = graph.overlays[0]
        // In from the right edge by its left side; out at the bottom edge by its top side; no fade.
        #expect(frames(o.positionX) == ["640.0@0.0", "100.0@0.5", "100.0@1.5", "100.0@2.0"])
        #expect(frames(o.anchorX) == ["0.0@0.0", "0.5@0.5", "0.5@1.5", "0.5@2.0"])
        #expect(frames(o.positionY) == ["50.0@0.0", "50.0@0.5", "50.0@1.5", "360.0@2.0"])
        #expect(frames(o.anchorY) == ["0.5@0.0", "0.5@0.5", "0.5@1.5", "0.0@2.0"])
        #expect(o.opacity.isConstant)
    }

    @Test func wipesMoveTheEdgesOfTheReveal() throws {
        let graph = try load("""
            video: [{ clips: [{ media: a, duration: 4s }] }]
            overlays:
              - { rect: true, size: [100, 40], duration: 2s, enter: wipe-right, exit: wipe-up }
              - { rect: true, size: [100, 40], duration: 2s, enter: wipe-up, exit: wipe-left }
            """).graph
        let first = try #require(graph.overlays[0].reveal), second = try #require(graph.overlays[1].reveal)
        #expect(frames(first.right) == ["0.0@0.0", "1.0@0.5"])
        #expect(first.right.keyframes.first?.ease == .easeInOut)
        #expect(frames(first.bottom) == ["1.0@1.5", "0.0@2.0"])
        #expect(first.left.isConstant && first.top.isConstant)
        #expect(frames(second.top) == ["1.0@0.0", "0.0@0.5"])
        #expect(frames(second.right) == ["1.0@1.5", "0.0@2.0"])
    }

    @Test func typewriterExitDeletesTheLastLetterFirst() throws {
        let graph = try load("""
            video: [{ clips: [{ media: a, duration: 4s }] }]
            overlays:
              - { text: abc, at: 1s, duration: 2s, fade_in: 0.5s, exit: { kind: typewriter, duration: 0.6s } }
              - { text: abc, exit: { kind: typewriter, stagger: 0.1s } }
            """).graph
        let deleting = try #require(graph.overlays[0].textUnits?.exit)
        #expect(deleting.reversed && deleting.time == seconds(3) && deleting.pace == .spread(MediaTime(Rational(3, 5))))
        // c goes at 2.6 s, b at 2.8 s, a at 3 s.
        #expect(deleting.poses(count: 3, at: MediaTime(Rational(27, 10))).map(\.opacity) == [1, 1, 0])
        #expect(frames(graph.overlays[0].opacity) == ["0.0@1.0", "1.0@1.5"])
        // Without a duration the overlay lasts to the end, where the deleting ends; a letter every 0.1 s.
        let toTheEnd = try #require(graph.overlays[1].textUnits?.exit)
        #expect(toTheEnd.time == seconds(4) && toTheEnd.pace == .stagger(MediaTime(Rational(1, 10)), each: MediaTime(Rational(1, 10))))
    }

    @Test func unitMovesThatCannotBeWrittenAreErrorsAtTheirLine() throws {
        let error = #expect(throws: ProjectError.self) {
            try load("""
                video: [{ clips: [{ media: a, duration: 4s, enter: { kind: fade, by: word } }] }]
                overlays:
                  - { rect: true, size: [10, 10], enter: { kind: fade, by: word } }
                  - { text: A, enter: { kind: fade, stagger: 0.1s } }
                  - { text: B, enter: { kind: typewriter, duration: 1s, stagger: 0.1s } }
                  - { text: C, enter: { kind: slide-left, by: letter, from: frame } }
                  - { text: "one two three", duration: 1s, enter: { kind: fade, by: word, duration: 0.5s, stagger: 0.3s } }
                """)
        }
        let found = error?.diagnostics.map { "\($0.location.line):\($0.location.column) \($0.message)" } ?? []
        #expect(Set(found) == [
            "4:52 enter: by: word splits a text; a clip is no text",
            "6:42 enter: by: word splits a text; this overlay is no text",
            "7:46 enter: stagger is the time between two units of a text; it needs by: letter, word or line",
            "8:66 enter: typewriter types the whole text in its duration, or a letter every stagger; not both",
            "9:23 enter: from: frame moves the whole layer; by: letter moves each letter within it",
            "10:51 the entrance and exit (1.1s together) last longer than the overlay (1s)",
        ], "\(found)")
    }

    @Test func aUnitOrAStaggerTheSchemaRefusesIsAnErrorAtItsValue() throws {
        for (written, column) in [("by: glyph", 41), ("stagger: -0.1s", 56)] {
            let error = #expect(throws: ProjectError.self) {
                try load("""
                    video: [{ clips: [{ media: a, duration: 4s }] }]
                    overlays:
                      - { text: A, enter: { kind: fade, by: word, \(written) } }
                    """.replacingOccurrences(of: "by: word, by: glyph", with: "by: glyph"))
            }
            let first = try #require(error?.diagnostics.first, "\(written)")
            #expect(first.location.line == 6 && first.location.column == column, "\(written): \(first.location.line):\(first.location.column) \(first.message)")
            #expect(first.message.contains(written.hasPrefix("by") ? "enter.by" : "enter.stagger"), "\(first.message)")
        }
    }

    @Test func clipsEnterAndLeaveOnTheirTrack() throws {
        let graph = try load("""
            video:
              - clips: [{ media: a, duration: 4s }]
              - clips: [{ media: logo, duration: 3s, transform: { scale: 0.3, position: ["80%", "80%"] },
                          enter: { kind: slide-right, from: frame }, exit: wipe-left }]
            """).graph
        let pip = try #require(graph.videoComposition.instructions.first?.layers.last)
        // In from the left edge by its right side; wiped away from the right: the right crop grows to all of it.
        // (The instruction ends at 3 s, where each ramp is sliced.)
        #expect(frames(pip.transform.positionX) == ["0.0@0.0", "512.0@0.5", "512.0@3.0"])
        #expect(frames(pip.transform.anchorX) == ["1.0@0.0", "0.5@0.5", "0.5@3.0"])
        #expect(frames(pip.crop.right) == ["0.0@0.0", "0.0@2.5", "1.0@3.0"])
        #expect(pip.crop.left.isConstant)
    }

    @Test func pansAndZoomsTakeAnAmount() throws {
        let graph = try load("""
            video: [{ clips: [{ media: logo, duration: 2s, motion: { kind: pan-left, amount: 0.4 } }, { media: logo, duration: 2s, motion: zoom-in }] }]
            """).graph
        let pan = try #require(graph.videoComposition.instructions.first?.layers.first)
        let zoom = try #require(graph.videoComposition.instructions.last?.layers.first)
        // Enlarged 1.4 times, the picture overhangs by 20 % of the frame on each side and travels from one side to the other.
        #expect(pan.transform.scaleX.constantValue == 1.4)
        #expect(frames(pan.transform.positionX) == ["448.0@0.0", "192.0@2.0"])
        #expect(pan.transform.positionY.constantValue == 180)
        #expect(frames(zoom.transform.scaleX) == ["1.0@2.0", "1.2@4.0"])
    }

    @Test func movesThatCannotBeWrittenAreErrorsAtTheirLine() throws {
        let error = #expect(throws: ProjectError.self) {
            try load("""
                video: [{ clips: [{ media: a, duration: 4s, exit: typewriter }] }]
                overlays:
                  - { text: A, duration: 0.8s, enter: fade, exit: fade }
                  - { text: B, enter: { kind: fade, from: frame } }
                  - { text: C, duration: 0.3s, exit: typewriter }
                  - { image: logo, watermark: { corner: top-right }, enter: slide-left }
                """)
        }
        let messages = error?.diagnostics.map(\.message) ?? []
        #expect(messages.count == 5 && Set(messages) == [
            "exit: typewriter types text; a clip is no text",
            "the entrance and exit (1s together) last longer than the overlay (0.8s)",
            "enter: from: frame is for slides; fade does not move the layer",
            "the entrance and exit (0.5s together) last longer than the overlay (0.3s)",
            "a watermark stays in its corner, so its position and anchor cannot move",
        ], "\(messages)")
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

    @Test func anEaseOnTheLastKeyframeIsToldWhereToGo() {
        // Peers put the ease on the keyframe reached; Reel's shapes the way from its keyframe on.
        do {
            _ = try load("""
                video: [{ clips: [{ media: a, duration: 4s }] }]
                overlays:
                  - text: Moving
                    duration: 2s
                    opacity:
                      - { at: 0s, value: 0 }
                      - { at: 1s, value: 1, ease: ease-out-expo }
                """)
            Issue.record("no error")
        } catch {
            #expect(error.diagnostics.map(\.location.line) == [10])
            #expect(error.diagnostics.first?.hint == "move ease: ease-out-expo to the keyframe the movement starts from (line 9), and remove it here")
        }
    }
}
