import CompositionGraph
import Foundation
import MediaTime
import ProjectCompiler
import ProjectFile
import TestSupport
import Testing

/// Overlays that follow a clip (`at: { clip: … }`, `duration: clip`, a clip's own
/// `overlays:`): their times on the timeline, exact, with transitions on either side of the
/// clip, and the errors of ids and tied times at their line and column.
@Suite struct ClipTiedOverlayTests {
    let project = PromoProjectText(file: "clip-tied.yaml")

    func load(_ text: String) throws(ProjectError) -> ProjectPipeline.Loaded { try project.load(text) }
    func failure(_ text: String) -> ProjectError? { project.failure(text) }

    /// Line and column (from 1) where `needle` is first written in the project `text` (after the head).
    func place(of needle: String, in text: String) -> (line: Int, column: Int) {
        let whole = PromoProjectText.head + text
        let lines = whole.components(separatedBy: "\n")
        for (n, line) in lines.enumerated() {
            if let r = line.range(of: needle) { return (n + 1, line.distance(from: line.startIndex, to: r.lowerBound) + 1) }
        }
        Issue.record("'\(needle)' is not in the project")
        return (0, 0)
    }

    /// A 3 s clip, a 10-frame crossfade (1/3 s), the 4 s clip `middle`, a 1 s wipe, and the
    /// 3 s clip `last`: `middle` shows from 3 − 1/3 = 8/3 s to 8/3 + 4 = 20/3 s, `last` from
    /// 17/3 s to 26/3 s.
    static let track = """
        video:
          - clips:
              - { media: a, id: first, duration: 3s }
              - { transition: crossfade, duration: 10f }
              - { media: b, id: middle, duration: 4s }
              - { transition: wipe-left, duration: 1s }
              - { media: a, id: last, from: 2s, duration: 3s }

        """

    @Test func anOverlayFollowsAClipsSpanAcrossItsTransitions() throws {
        let loaded = try load(Self.track + """
            overlays:
              - { text: Start, at: { clip: middle } }
              - { text: Offset, at: { clip: middle, offset: 0.5s }, duration: 1s }
              - { text: End, at: { clip: middle, from: end, offset: -1s }, duration: clip }
              - { text: Before, at: { clip: last, offset: -0.25s }, duration: clip }
              - { text: Whole, at: { clip: first }, duration: clip }
            """)
        let ranges = loaded.graph.overlays.map(\.timeRange)
        #expect(ranges == [
            range(seconds(8, 3), seconds(26, 3)),     // from the start of the crossfade into `middle`, to the end of the video
            range(seconds(19, 6), seconds(25, 6)),
            range(seconds(17, 3), seconds(20, 3)),    // the last second of `middle`'s span: the wipe out of it
            range(seconds(65, 12), seconds(26, 3)),   // a quarter of a second before `last` starts to show
            range(seconds(0), seconds(3)),            // `first` shows until the crossfade out of it ends
        ], "\(ranges)")
        // The spans are where placement put the clips.
        let placed = loaded.layout.video[0].map(\.target)
        #expect(placed == [range(seconds(0), seconds(3)), range(seconds(8, 3), seconds(20, 3)), range(seconds(17, 3), seconds(26, 3))])
    }

    @Test func aClipsOwnOverlaysCountFromItsStartAndLastToItsEnd() throws {
        let loaded = try load("""
            video:
              - clips:
                  - { media: a, duration: 3s }
                  - { transition: crossfade, duration: 10f }
                  - media: b
                    duration: 4s
                    overlays:
                      - { text: Whole }
                      - { text: Late, at: 1s }
                      - { text: Tail, at: { from: end, offset: -1s }, duration: 0.5s }
                      - { text: Early, at: { offset: -0.5s }, duration: 1s }
                  - { transition: wipe-left, duration: 1s }
                  - { media: a, duration: 3s }
            overlays:
              - { text: Top, at: 0s, duration: 1s }
            """)
        let graph = loaded.graph
        // A clip's overlays are drawn first, beneath the project's.
        #expect(graph.overlays.map(\.content.shownText) == ["Whole", "Late", "Tail", "Early", "Top"])
        #expect(graph.overlays.map(\.timeRange) == [
            range(seconds(8, 3), seconds(20, 3)),
            range(seconds(11, 3), seconds(20, 3)),
            range(seconds(17, 3), seconds(37, 6)),
            range(seconds(13, 6), seconds(19, 6)),
            range(seconds(0), seconds(1)),
        ])
        #expect(loaded.layout.overlays.map(\.path) == ["video[0].clips[2].overlays[0]", "video[0].clips[2].overlays[1]",
                                                       "video[0].clips[2].overlays[2]", "video[0].clips[2].overlays[3]", "overlays[0]"])
        #expect(loaded.layout.overlays.map(\.range) == graph.overlays.map(\.timeRange))
    }

    @Test func lengtheningAClipMovesWhatFollowsIt() throws {
        func ranges(firstLasts length: String) throws -> [TimeRange] {
            try load("""
                video:
                  - clips:
                      - { media: a, id: first, duration: \(length) }
                      - { transition: crossfade, duration: 1s }
                      - media: b
                        id: second
                        duration: 4s
                        overlays: [{ text: Own, at: 1s, duration: 1s }]
                overlays:
                  - { text: Tied, at: { clip: second, offset: 0.5s }, duration: clip }
                  - { text: FirstEnd, at: { clip: first, from: end, offset: -2s }, duration: clip }
                  - { text: Fixed, at: 1s, duration: 1s }
                """).graph.overlays.map(\.timeRange)
        }
        #expect(try ranges(firstLasts: "3s") == [range(seconds(3), seconds(4)), range(seconds(5, 2), seconds(6)),
                                                 range(seconds(1), seconds(3)), range(seconds(1), seconds(2))])
        // Two seconds longer: everything tied to the second clip or to the first's end moves by 2 s; the fixed one stays.
        #expect(try ranges(firstLasts: "5s") == [range(seconds(5), seconds(6)), range(seconds(9, 2), seconds(8)),
                                                 range(seconds(3), seconds(5)), range(seconds(1), seconds(2))])
    }

    @Test func aSoundClipCanBeFollowed() throws {
        let graph = try load("""
            video: [{ clips: [{ media: a, duration: 8s }] }]
            audio:
              - clips: [{ gap: 2s }, { media: music, id: voice, duration: 3s }]
            overlays:
              - { text: Line, at: { clip: voice }, duration: clip }
            """).graph
        #expect(graph.overlays.map(\.timeRange) == [range(seconds(2), seconds(5))])
    }

    @Test func namedEntrancesAndExitsLandAtTheTiedTimes() throws {
        let graph = try load("""
            video:
              - clips:
                  - { media: a, duration: 3s }
                  - { transition: crossfade, duration: 10f }
                  - { media: b, id: middle, duration: 4s }
                  - { transition: wipe-left, duration: 1s }
                  - media: a
                    from: 2s
                    duration: 3s
                    overlays: [{ text: Own, enter: slide-up, exit: { kind: fade, duration: 0.4s } }]
            overlays:
              - { text: Tied, at: { clip: middle, offset: 0.5s }, duration: clip, enter: fade, exit: { kind: fade, duration: 0.5s } }
            """).graph
        // `last` (17/3 … 26/3 s) slides its own overlay in from its start and fades it out by its end.
        let own = graph.overlays[0], tied = graph.overlays[1]
        #expect(own.timeRange == range(seconds(17, 3), seconds(26, 3)))
        #expect(own.anchorY.keyframes.map(\.time) == [seconds(17, 3), seconds(37, 6)])
        #expect(own.opacity.keyframes.map(\.time) == [seconds(17, 3), seconds(37, 6), seconds(124, 15), seconds(26, 3)])
        #expect(own.opacity.keyframes.map(\.value) == [0, 1, 1, 0])
        // Tied to `middle` half a second in (19/6 s) and to its end (20/3 s).
        #expect(tied.opacity.keyframes.map(\.time) == [seconds(19, 6), seconds(11, 3), seconds(37, 6), seconds(20, 3)])
        #expect(tied.opacity.keyframes.map(\.value) == [0, 1, 1, 0])
    }

    @Test func aClipsOverlaysTakeTheOverlayDefaults() throws {
        let graph = try load("""
            defaults:
              overlay: { opacity: 0.5, style: { size: 30 } }
              clip: { overlays: [{ text: Every clip, duration: 1s }] }
            video:
              - clips:
                  - { media: a, duration: 2s }
                  - media: b
                    duration: 3s
                    overlays: [{ text: Own, at: 1s }]
            """).graph
        #expect(graph.overlays.map(\.content.shownText) == ["Every clip", "Own"])
        #expect(graph.overlays.map(\.timeRange) == [range(seconds(0), seconds(1)), range(seconds(3), seconds(5))])
        #expect(graph.overlays.map { $0.opacity.value(at: $0.timeRange.start) } == [0.5, 0.5])
        #expect(graph.overlays.map { $0.content.textStyle?.size } == [30, 30])
    }

    @Test func anIdIsNoDefault() {
        let text = """
            defaults:
              clip: { id: card, fit: cover }
            video: [{ clips: [{ media: a, duration: 4s }] }]
            """
        let error = failure(text)
        #expect(error?.diagnostics.map(\.message) == ["'id' cannot be a default: each clip has its own id, unique in the project"])
        #expect(error?.diagnostics.first.map { [$0.location.line, $0.location.column] } == [place(of: "id: card", in: text).line, place(of: "id: card", in: text).column])
    }

    @Test func anUnknownIdIsReportedWhereItIsWrittenWithTheNearestOne() throws {
        let text = Self.track + """
            overlays:
              - { text: A, at: { clip: midle }, duration: clip }
            """
        let error = try #require(failure(text))
        let d = try #require(error.diagnostics.first)
        #expect(error.diagnostics.count == 1 && d.message == "no clip has the id 'midle'", "\(error.diagnostics)")
        #expect(d.hint == "did you mean 'middle'?")
        let expected = place(of: "midle", in: text)
        #expect(d.location.line == expected.line && d.location.column == expected.column, "\(d.location)")
    }

    @Test func aClipsNameIsNoId() throws {
        let error = try #require(failure("""
            video: [{ clips: [{ media: a, name: opening, duration: 4s }] }]
            overlays:
              - { text: A, at: { clip: opening } }
            """))
        #expect(error.diagnostics.map(\.message) == ["no clip has the id 'opening'"])
        #expect(error.diagnostics.first?.hint == "'opening' is the name of a clip, a label; give that clip id: opening to follow it")
    }

    @Test func anIdGivenTwiceIsReportedAtTheSecond() throws {
        let text = """
            video:
              - clips: [{ media: a, id: shot, duration: 4s }]
              - clips: [{ media: logo, id: shot, duration: 2s }]
            """
        let error = try #require(failure(text))
        let first = place(of: "id: shot", in: text)
        #expect(error.diagnostics.map(\.message) == ["the id 'shot' is already the id of the clip at line \(first.line)"])
        #expect(error.diagnostics.first?.hint == "ids are unique in the project: give this clip another one")
        let second = place(of: "id: shot, duration: 2s", in: text)
        #expect(error.diagnostics.first.map { [$0.location.line, $0.location.column] } == [second.line, second.column + 4])
    }

    @Test func anIdOfTheWrongFormIsRefusedByTheSchema() throws {
        let text = "video: [{ clips: [{ media: a, id: 2nd shot, duration: 4s }] }]\n"
        let error = try #require(failure(text))
        let d = try #require(error.diagnostics.first)
        #expect(d.path == "video[0].clips[0].id" && d.message.hasSuffix("is not valid here"), "\(error.diagnostics)")
        #expect(d.hint?.hasPrefix("expected a clip's id") == true, "\(d.hint ?? "")")
        #expect(d.location.line == place(of: "2nd shot", in: text).line && d.location.column == place(of: "2nd shot", in: text).column)
    }

    @Test func tiedTimesThatCannotBeAreErrorsAtTheirPlace() throws {
        let cases: [(overlay: String, at: String, message: String, hint: String)] = [
            ("{ text: A, at: { clip: first, offset: -1s } }", "{ clip: first",
             "this overlay would start 1s before the timeline does: 1s before the start of clip 'first', which is at 00:00:00.000",
             "make the offset at least 0s"),
            ("{ text: A, at: { clip: middle, from: end, offset: 1s }, duration: clip }", "clip }",
             "duration: clip ends the overlay where clip 'middle' ends, at 00:00:06.667, but the overlay starts only at 00:00:07.667 (1s after the end of clip 'middle')",
             "start it before the clip ends, or give it a duration of its own (duration: 2s)"),
            ("{ text: A, at: 1s, duration: clip }", "clip }",
             "duration: clip lasts to the end of the overlay's clip, but this overlay follows no clip: its 'at' is a time on the timeline",
             "tie it to a clip (at: { clip: intro }), or give it a time (duration: 2s)"),
            ("{ text: A, at: { offset: 1s } }", "{ offset",
             "'at: { … }' counts from a clip, but names none",
             "add the clip's id (at: { clip: intro, offset: 1s }), or give a time on the timeline (at: 1s)"),
        ]
        for c in cases {
            let text = Self.track + "overlays:\n  - \(c.overlay)\n"
            let error = try #require(failure(text), "\(c.overlay)")
            #expect(error.diagnostics.map(\.message) == [c.message], "\(c.overlay)")
            #expect(error.diagnostics.first?.hint == c.hint, "\(c.overlay)")
            let expected = place(of: c.at, in: text)
            #expect(error.diagnostics.first.map { [$0.location.line, $0.location.column] } == [expected.line, expected.column], "\(c.overlay)")
        }
    }

    @Test func aClipsOwnOverlayNamesNoClipAndStartsWithinIt() throws {
        let cases: [(overlay: String, at: String, message: String, hint: String)] = [
            ("{ text: A, at: { clip: first } }", "first } }",
             "this overlay is written in a clip's overlays:, which time it by that clip, so its 'at' names no clip",
             "remove 'clip: first', or move the overlay to the project's overlays: to follow another clip"),
            ("{ text: A, at: 5s }", "5s",
             "this overlay starts at 00:00:05.000 (5s after the start of its clip), after its clip has ended (at 00:00:04.000): an overlay in a clip lasts to the clip's end unless it says otherwise",
             "start it within the clip, or give it a duration of its own (duration: 2s)"),
        ]
        for c in cases {
            let text = "video:\n  - clips:\n      - { media: a, id: first, duration: 4s, overlays: [\(c.overlay)] }\n"
            let error = try #require(failure(text), "\(c.overlay)")
            #expect(error.diagnostics.map(\.message) == [c.message], "\(c.overlay)")
            #expect(error.diagnostics.first?.hint == c.hint, "\(c.overlay)")
            let expected = place(of: c.at, in: text)
            #expect(error.diagnostics.first.map { [$0.location.line, $0.location.column] } == [expected.line, expected.column], "\(c.overlay)")
        }
    }

    @Test func soundClipsHoldNoOverlays() throws {
        let text = "video: [{ clips: [{ media: a, duration: 4s }] }]\naudio: [{ clips: [{ media: music, duration: 4s, overlays: [{ text: A }] }] }]\n"
        let error = try #require(failure(text))
        #expect(error.diagnostics.map(\.message) == ["unknown key 'overlays' in audio[0].clips[0]"], "\(error.diagnostics)")
        #expect(error.diagnostics.first.map { [$0.location.line, $0.location.column] } == [place(of: "overlays", in: text).line, place(of: "overlays", in: text).column])
    }
}
