import CompositionGraph
import Foundation
import MediaTime
import ProjectCompiler
import ProjectFile
import TestSupport
import Testing

/// Caption tracks compiled into layers: exact cue times from every file kind, one layer per
/// moment of a cue (which word is spoken, what is revealed), parts of `max_lines` lines.
@Suite struct CaptionCompileTests {
    func compile(_ captions: String, files: [String: String] = [:]) throws -> CompositionGraph {
        let folder = MediaFactory.path("caption-compile-\(UUID().uuidString)")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        for (name, text) in files { try text.write(toFile: "\(folder)/\(name)", atomically: true, encoding: .utf8) }
        let yaml = """
        reel: 1
        output: { size: [640, 360], fps: 30 }
        video:
          - clips: [{ color: "#000000", duration: 10s }]
        captions:
        \(captions)
        """
        let document = try DocumentLoader.load(text: yaml, name: "\(folder)/project.yaml")
        return try ProjectPipeline.load(document, media: FakeMediaFacts.promo, fonts: FakeFonts()).graph
    }

    func captions(_ graph: CompositionGraph) -> [(range: TimeRange, state: CaptionState)] {
        graph.overlays.compactMap { layer in
            if case .caption(let state) = layer.content { return (layer.timeRange, state) }
            return nil
        }
    }

    func word(_ state: CaptionState) -> [String] {
        let utf8 = Array(state.text.utf8)
        return state.highlighted.map { String(decoding: utf8[$0], as: UTF8.self) }
    }

    @Test func subRipTimesAreExactMilliseconds() throws {
        let graph = try compile("  - file: a.srt", files: ["a.srt": "1\n00:00:01,234 --> 00:00:02,001\n<i>Hello</i> &amp; bye\n\n2\n00:00:03,000 --> 00:00:04,500\nTwo\nlines\n"])
        let layers = captions(graph)
        #expect(layers.count == 2)
        #expect(layers[0].range == TimeRange(start: MediaTime(1234, 1000), end: MediaTime(2001, 1000)))
        #expect(layers[0].state.text == "Hello & bye")
        #expect(layers[1].state.text == "Two\nlines")
        #expect(graph.captionFiles.count == 1 && graph.captionFiles[0].hasSuffix("/a.srt"))
    }

    @Test func webVTTWordTimesMakeOneLayerPerSpokenWord() throws {
        let vtt = "WEBVTT\n\nNOTE skipped\n\nintro\n00:01.000 --> 00:03.000 align:start\nOne <00:00:01.500>two <00:00:02.250>three\n"
        let graph = try compile("  - { file: a.vtt, style: { highlight: { color: \"#ff0000\" } } }", files: ["a.vtt": vtt])
        let layers = captions(graph)
        #expect(layers.map(\.range) == [TimeRange(start: MediaTime(1, 1), end: MediaTime(3, 2)),
                                        TimeRange(start: MediaTime(3, 2), end: MediaTime(9, 4)),
                                        TimeRange(start: MediaTime(9, 4), end: MediaTime(3, 1))])
        #expect(layers.map { word($0.state) } == [["One"], ["two"], ["three"]])
    }

    @Test func wordListsFromRecognisersAreCuesWithWordTimes() throws {
        let json = """
        {"text": " Hi there", "segments": [{"id": 0, "start": 0.5, "end": 1.75, "text": " Hi there",
          "words": [{"word": " Hi", "start": 0.5, "end": 0.9, "probability": 0.9}, {"word": " there", "start": 1.1, "end": 1.2399999999999998}]}]}
        """
        let layers = captions(try compile("  - { file: w.json, style: { highlight: { scale: 1.2 }, reveal: word } }", files: ["w.json": json]))
        #expect(layers.first?.state.text == "Hi there")
        // Spoken, a pause (nothing highlighted, all revealed), spoken, the rest of the segment.
        #expect(layers.map(\.range.start) == [MediaTime(1, 2), MediaTime(9, 10), MediaTime(11, 10), MediaTime(124, 100)])
        #expect(layers.map { word($0.state) } == [["Hi"], [], ["there"], []])
        #expect(layers.map(\.state.revealedUpTo) == [2, 2, nil, nil])
    }

    @Test func letterRevealSpreadsAWordsLettersOverItsTime() throws {
        let layers = captions(try compile("""
          - cues: [{ at: 1s, to: 2s, text: "abcd" }, { at: 2s, to: 3s, text: "<00:00:02.000>wxyz" }]
            style: { reveal: letter }
        """))
        // An untimed cue shows whole; the timed one letter by letter, every quarter of its second.
        #expect(layers.map(\.state.revealedUpTo) == [nil, 1, 2, 3, nil])
        #expect(layers.map(\.range.start) == [MediaTime(1, 1), MediaTime(2, 1), MediaTime(9, 4), MediaTime(5, 2), MediaTime(11, 4)])
    }

    @Test func cuesWithMoreLinesThanMaxLinesShowInParts() throws {
        let layers = captions(try compile("""
          - cues: [{ at: 0s, duration: 6s, text: "one\\ntwo\\nthree" }, { at: 6s, duration: 2s, text: "a\\nb <00:00:07.500>c\\nd" }]
            style: { max_lines: 1 }
        """))
        // Untimed: each part after the share of the letters before it (4 and 8 of 13, line breaks counted).
        #expect(layers.map(\.state.text) == ["one", "two", "three", "a", "b c", "d"])
        #expect(layers[1].range.start == MediaTime(6, 1) * Rational(4, 13) && layers[2].range.start == MediaTime(6, 1) * Rational(8, 13))
        // Timed: a part starts with the first word that starts on it.
        #expect(layers[4].range.start == MediaTime(15, 2) && layers[3].range.end == MediaTime(15, 2))
    }
}
