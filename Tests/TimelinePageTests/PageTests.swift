import CompositionGraph
import Foundation
import Looks
import MediaTime
import Testing
@testable import TimelinePage
import TestSupport

/// The whole page: escaping of project text, determinism, transitions, thumbnails, volume
/// curves, overlays and a long timeline.
@Suite struct PageTests {
    func page(_ g: CompositionGraph, title: String = "project.yaml") -> String {
        TimelinePage.html(for: g, title: title) { _, _ in nil }
    }

    @Test func hostileTextShowsAsText() {
        let hostile = "<script>alert(\"x\")</script> & 'q'\u{0}"
        let evil = MediaReference.fake("\"><img src=x onerror=alert(1)>", path: "/m/<b>.mp4", kind: .video)
        let tracks = [CompositionTrack(id: 1, kind: .video, name: "</div><script>", segments: [clip(evil, at: range(.zero, seconds(5)), from: .zero)])]
        let overlay = OverlayLayer(content: .text(hostile, TextStyle(font: "</style>", size: 40)), timeRange: range(.zero, seconds(2)),
                                   positionX: .constant(0), positionY: .constant(0))
        let html = page(graph(duration: seconds(5), tracks: tracks, overlays: [overlay], metadata: ["<k>": "</title>"]), title: "<x>.yaml")
        #expect(!html.contains("<script"))
        #expect(!html.contains("<img src=x"))
        #expect(!html.contains("<b>.mp4"))
        #expect(occurrences(of: "</style>", in: html) == 1)
        #expect(occurrences(of: "</title>", in: html) == 1)
        #expect(html.contains("“&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;q&#39;\u{FFFD}”"))
        #expect(html.contains("<b>&quot;&gt;&lt;img src=x onerror=alert(1)&gt;</b>"))
        #expect(html.contains("<title>&lt;x&gt;.yaml · timeline</title>"))
        #expect(html.contains("<dt>&lt;k&gt;</dt><dd>&lt;/title&gt;</dd>"))
    }

    @Test func longTextIsAbbreviatedOnOneLine() {
        #expect(HTMLText.abbreviated("one\ntwo", limit: 10) == "one two")
        #expect(HTMLText.abbreviated(String(repeating: "é", count: 12), limit: 10) == String(repeating: "é", count: 9) + "…")
    }

    @Test func theSameGraphGivesTheSameBytes() {
        // Metadata in two insertion orders: dictionaries may iterate differently, the page may not.
        var forward: [String: String] = [:], backward: [String: String] = [:]
        let keys = (0..<40).map { "key\($0)" }
        for k in keys { forward[k] = k.uppercased() }
        for k in keys.reversed() { backward[k] = k.uppercased() }
        let a = page(graph(duration: seconds(60), tracks: longGraph(clips: 20, duration: seconds(60)).composition.tracks, metadata: forward))
        let b = page(graph(duration: seconds(60), tracks: longGraph(clips: 20, duration: seconds(60)).composition.tracks, metadata: backward))
        #expect(a == b)
        #expect(page(crossfadeGraph()) == page(crossfadeGraph()))
    }

    @Test func theCrossfadeIsABandAndABoxOverTheTwoRowsItJoins() {
        let html = page(crossfadeGraph())
        #expect(html.contains("<div class=\"band layered transition\" style=\"left:45.0000%;width:5.0000%\""))
        #expect(html.contains("><span>crossfade</span></div>"))
        let rows = PageStyle.videoRowHeight * 2 + PageStyle.rowGap
        #expect(html.contains("<div class=\"join\" style=\"left:45.0000%;width:5.0000%;top:0px;height:\(rows)px\""))
        #expect(html.contains("<span class=\"upper\">crossfade ↓</span>"))
        #expect(html.contains("crossfade from video 1 A (track 1) to video 1 B (track 2)"))
        #expect(html.contains("1 transition"))
    }

    @Test func layersWithoutATransitionAreNotCalledOne() {
        // A picture in picture: two layers, no transition.
        let main = clip(video("main"), at: range(.zero, seconds(10)), from: .zero)
        let inset = clip(video("inset"), at: range(.zero, seconds(10)), from: .zero)
        let tracks = [CompositionTrack(id: 1, kind: .video, name: "main", segments: [main]),
                      CompositionTrack(id: 2, kind: .video, name: "inset", segments: [inset])]
        let both = VideoInstruction(timeRange: range(.zero, seconds(10)), background: .black, layers: [layer(1), layer(2)])
        let html = page(graph(duration: seconds(10), tracks: tracks, instructions: [both]))
        #expect(html.contains("<div class=\"band layered\""))
        #expect(html.contains("<span>main + inset</span>"))
        #expect(!html.contains("class=\"join\""))
        #expect(html.contains("0 transitions"))
    }

    @Test func aLayersFiltersAreNamedInItsInstruction() {
        let main = clip(video("main"), at: range(.zero, seconds(10)), from: .zero)
        var filtered = layer(1)
        filtered.filters = [LayerFilter(.blur, ["radius": .number(.constant(12))]),
                            LayerFilter(.lut, ["file": .lut("/looks/teal.cube"), "intensity": .number(.constant(1))])]
        let tracks = [CompositionTrack(id: 1, kind: .video, name: "main", segments: [main])]
        let html = page(graph(duration: seconds(10), tracks: tracks,
                              instructions: [VideoInstruction(timeRange: range(.zero, seconds(10)), background: .black, layers: [filtered])]))
        #expect(html.contains("layer main (track 1), fit contain, opacity 1, filters blur lut"))
        #expect(!page(crossfadeGraph()).contains("filters"))
    }

    @Test func aTransitionCutByAnotherTracksClipIsOneBox() {
        var g = crossfadeGraph()
        let mark = g.videoComposition.instructions[1].transitions
        g.videoComposition.instructions.replaceSubrange(1...1, with: [
            VideoInstruction(timeRange: range(seconds(9), seconds(19, 2)), background: .black, layers: [layer(1), layer(2)], transitions: mark),
            VideoInstruction(timeRange: range(seconds(19, 2), seconds(10)), background: .black, layers: [layer(1), layer(2)], transitions: mark),
        ])
        let html = page(g)
        #expect(occurrences(of: "class=\"join\"", in: html) == 1)
        #expect(occurrences(of: "class=\"band layered transition\"", in: html) == 2)
    }

    @Test func videoClipsAndStillsAskForTheirPicturesAudioDoesNot() {
        var asked: [String] = []
        var g = crossfadeGraph()
        let logo = MediaReference.fake("logo", path: "/media/logo.svg", kind: .svg)
        g.composition.tracks.append(CompositionTrack(id: 3, kind: .video, name: "still", segments: [Segment(target: range(.zero, seconds(2)), content: .still(logo))]))
        g.composition.tracks.append(CompositionTrack(id: 4, kind: .audio, name: "audio", segments: g.composition.tracks[0].segments))
        let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        let html = TimelinePage.html(for: g, title: "t") { reference, time in
            asked.append("\(reference.name)@\(time)")
            return reference.kind == .svg ? Thumbnail(mimeType: "image/svg+xml", bytes: Array("<svg/>".utf8)) : Thumbnail(mimeType: "image/png", bytes: png)
        }
        #expect(asked == ["intro@1", "broll@0", "logo@0"])
        #expect(occurrences(of: "src=\"data:image/png;base64,iVBORw0KGgo=\"", in: html) == 2)
        #expect(html.contains("<img class=\"thumb\" src=\"data:image/svg+xml;base64,PHN2Zy8+\" alt=\"\">"))
        #expect(html.contains("<span class=\"badge\">still svg</span>"))
    }

    @Test func speedColourAndGapsAreShown() {
        let fast = Segment(target: range(.zero, seconds(2)), content: .media(video("fast"), sourceRange: range(.zero, seconds(4))))
        let red = Segment(target: range(seconds(3), seconds(4)), content: .color(Color(red: 1, green: 0, blue: 0)))
        let html = page(graph(duration: seconds(4), tracks: [
            CompositionTrack(id: 1, kind: .video, name: "v", segments: [fast, Segment(target: range(seconds(2), seconds(3)), content: nil), red]),
        ]))
        #expect(html.contains("<b>fast</b><span class=\"speed\">2×</span>"))
        #expect(html.contains("speed 2"))
        #expect(html.contains("<div class=\"box color light\" style=\"left:75.0000%;width:25.0000%;background:#ff0000\""))
        #expect(occurrences(of: "<div class=\"box ", in: html) == 2)
    }

    @Test func volumeCurvesFollowTheKeyframes() {
        let music = Segment(target: range(.zero, seconds(20)), content: .media(MediaReference.fake("music", path: "/m.mp3", kind: .audio),
                                                                              sourceRange: range(.zero, seconds(20))))
        let volume = Animation(keyframes: [Keyframe(time: .zero, value: 0), Keyframe(time: seconds(1), value: 0.5),
                                           Keyframe(time: seconds(18), value: 0.5), Keyframe(time: seconds(20), value: 0)])
        let html = page(graph(duration: seconds(20), tracks: [CompositionTrack(id: 7, kind: .audio, name: "music", segments: [music])],
                              volumes: [(7, volume)]))
        #expect(html.contains("<polyline points=\"0,1000 50000,500 900000,500 1000000,1000\"/>"))
        #expect(html.contains("<polygon points=\"0,1000 0,1000 50000,500 900000,500 1000000,1000 1000000,1000\"/>"))
        #expect(html.contains("track 7 · gain ≤ 1"))
    }

    @Test func curvesHoldStepAndSampleEasingsWithinTheirSegments() {
        let volume = Animation(keyframes: [Keyframe(time: seconds(1), value: 1, ease: .hold), Keyframe(time: seconds(2), value: 2),
                                           Keyframe(time: seconds(3), value: 2, ease: .easeIn), Keyframe(time: seconds(4), value: 0)])
        let points = VolumeCurve.curve(volume, over: range(.zero, seconds(5)))
        #expect(points.map(\.0).prefix(5) == [.zero, seconds(1), seconds(2), seconds(2), seconds(3)])
        #expect(points.map(\.1).prefix(5) == [1, 1, 1, 2, 2])
        #expect(points.count == 5 + VolumeCurve.samplesPerEase - 1 + 2)
        #expect(points.last! == (seconds(5), 0))
        // Only the part inside a segment is drawn.
        let slice = VolumeCurve.curve(volume, over: range(seconds(3, 2), seconds(5, 2)))
        #expect(slice.map(\.0) == [seconds(3, 2), seconds(2), seconds(2), seconds(5, 2)])
        #expect(VolumeCurve.top(of: volume) == 2)
        // A clip ending where a hold ends, or where a step happens, ends at the value before it.
        #expect(VolumeCurve.curve(volume, over: range(.zero, seconds(2))).last! == (seconds(2), 1))
        let step = Animation(keyframes: [Keyframe(time: .zero, value: 1), Keyframe(time: seconds(1), value: 1), Keyframe(time: seconds(1), value: 0)])
        #expect(VolumeCurve.curve(step, over: range(.zero, seconds(1))).map(\.1) == [1, 1])
        #expect(VolumeCurve.curve(step, over: range(seconds(1), seconds(2))).map(\.1) == [0, 0])
    }

    @Test func overlaysShareRowsWhenTheyDoNotOverlap() {
        func text(_ s: Int64, _ e: Int64) -> OverlayLayer {
            OverlayLayer(content: .text("t", TextStyle(font: "f", size: 10)), timeRange: range(seconds(s), seconds(e)),
                         positionX: .constant(0), positionY: .constant(0))
        }
        // A watermark over everything, then three texts of which two overlap.
        let overlays = [text(0, 20), text(5, 8), text(1, 4), text(3, 6)]
        #expect(OverlayLanes.pack(overlays) == [[0], [2, 1], [3]])
        let html = page(graph(duration: seconds(20), tracks: [], overlays: overlays))
        #expect(html.contains("<span class=\"range\">whole timeline</span>"))
        #expect(html.contains("<small>#3 #2</small>"))
    }

    @Test func shapeFillsBecomeCSS() {
        let gradient = Fill.linearGradient(angle: 90, stops: [GradientStop(offset: 0, color: .white), GradientStop(offset: 1, color: .black)])
        #expect(ColorText.css(gradient) == "linear-gradient(180deg,#ffffff 0%,#000000 100%)")
        #expect(ColorText.css(.color(Color(red: 0, green: 0, blue: 0, alpha: 0.5))) == "#00000080")
    }

    @Test func twoHundredClipsInThirtyMinutesMakeASanePage() {
        let g = longGraph(clips: 200, duration: seconds(1800))
        let html = page(g)
        #expect(occurrences(of: "<div class=\"box video\"", in: html) == 200)
        #expect(occurrences(of: "<div class=\"box audio\"", in: html) == 200)
        #expect(occurrences(of: "<span class=\"tick major\"", in: html) == 181)
        #expect(html.contains("style=\"min-width:\(PageStyle.headWidth + 22000 + PageStyle.rightPadding)px\""))
        // 20 captions of 9 s fit one row beside the watermark's.
        #expect(occurrences(of: "<div class=\"row overlay\">", in: html) == 2)
        #expect(html.count < 2_000_000)
    }
}
