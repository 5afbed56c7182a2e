import Foundation
import TestSupport
import Testing

/// Captions rendered for real (lossless H.264 over a black colour clip, decoded back with
/// ffmpeg): the highlighted word's colour on exactly the frames of its time and at its place,
/// cue boundaries to the frame, revealed words, balanced, RTL and CJK wrapping, cue files as
/// inputs, and `reel validate` on malformed cue files.
@Suite(.serialized) struct CaptionTests {
    /// A project in a folder of its own with `files` beside it; `captions` is the YAML of its
    /// `captions:` list. 320×180 at 25 fps, black, 4 s, lossless.
    static func project(_ name: String, captions: String, files: [String: String]) throws -> String {
        let folder = MediaFactory.path("captions-\(name)")
        try? FileManager.default.removeItem(atPath: folder)
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        for (file, text) in files { try text.write(toFile: "\(folder)/\(file)", atomically: true, encoding: .utf8) }
        let yaml = """
        reel: 1
        output:
          size: [320, 180]
          fps: 25
          container: mkv
          video: { codec: h264, crf: 0, preset: ultrafast }
          audio: { codec: flac }
        video:
          - clips:
              - { color: "#000000", duration: 4s }
        captions:
        \(captions)
        """
        try yaml.write(toFile: "\(folder)/project.yaml", atomically: true, encoding: .utf8)
        return "\(folder)/project.yaml"
    }

    static func render(_ project: String) throws -> String {
        let output = project.replacingOccurrences(of: "project.yaml", with: "out.mkv")
        let run = try ReelCommand.run(["render", project, "-o", output, "--progress", "none"])
        try #require(run.status == 0, "\(run.standardError)")
        return output
    }

    /// Pixels of a colour in a decoded frame, left and right of the centre and in all.
    struct Count: Equatable {
        var left = 0, right = 0
        var all: Int { left + right }
    }

    static func count(_ rgb: [UInt8], width: Int = 320, _ matches: (UInt8, UInt8, UInt8) -> Bool) -> Count {
        var count = Count()
        for i in stride(from: 0, to: rgb.count, by: 3) where matches(rgb[i], rgb[i + 1], rgb[i + 2]) {
            if (i / 3) % width < width / 2 { count.left += 1 } else { count.right += 1 }
        }
        return count
    }

    static func red(_ r: UInt8, _ g: UInt8, _ b: UInt8) -> Bool { r > 200 && g < 60 && b < 60 }
    static func white(_ r: UInt8, _ g: UInt8, _ b: UInt8) -> Bool { r > 200 && g > 200 && b > 200 }
    static func green(_ r: UInt8, _ g: UInt8, _ b: UInt8) -> Bool { g > 200 && r < 60 && b < 60 }

    /// Rows (top, bottom) holding a colour, or nil.
    static func rows(_ rgb: [UInt8], width: Int = 320, _ matches: (UInt8, UInt8, UInt8) -> Bool) -> ClosedRange<Int>? {
        var rows: [Int] = []
        for i in stride(from: 0, to: rgb.count, by: 3) where matches(rgb[i], rgb[i + 1], rgb[i + 2]) { rows.append(i / 3 / width) }
        guard let top = rows.min(), let bottom = rows.max() else { return nil }
        return top...bottom
    }

    /// Columns (left, right) holding a colour, or nil.
    static func columns(_ rgb: [UInt8], width: Int = 320, _ matches: (UInt8, UInt8, UInt8) -> Bool) -> ClosedRange<Int>? {
        var columns: [Int] = []
        for i in stride(from: 0, to: rgb.count, by: 3) where matches(rgb[i], rgb[i + 1], rgb[i + 2]) { columns.append(i / 3 % width) }
        guard let left = columns.min(), let right = columns.max() else { return nil }
        return left...right
    }

    static let twoWords = """
    WEBVTT

    00:00:01.234 --> 00:00:03.000
    WWW <00:00:02.000>MMM
    """

    static let highlightStyle = "{ font: DejaVu Sans, weight: bold, size: 40, color: \"#ffffff\", position: middle, highlight: { color: \"#ff0000\" } }"

    @Test func theSpokenWordIsHighlightedOnExactlyTheFramesOfItsTime() throws {
        let project = try Self.project("highlight", captions: "  - { file: talk.vtt, style: \(Self.highlightStyle) }", files: ["talk.vtt": Self.twoWords])
        let video = try Self.render(project)
        // Frame n is at n/25 s. The cue starts at 1.234 s: frame 30 (1.2 s) is before it, 31 (1.24 s) the first at or after.
        let before = try StillCommandTests.rgb(video, frame: 30)
        #expect(Self.count(before, Self.white).all == 0 && Self.count(before, Self.red).all == 0)
        for frame in [31, 49] {
            let rgb = try StillCommandTests.rgb(video, frame: frame)
            let red = Self.count(rgb, Self.red), white = Self.count(rgb, Self.white)
            #expect(red.left > 100 && red.right == 0, "frame \(frame): WWW (left) is spoken: \(red)")
            #expect(white.right > 100, "frame \(frame): MMM (right) is white: \(white)")
        }
        // 2.000 s is frame 50 exactly: MMM from then on.
        for frame in [50, 74] {
            let rgb = try StillCommandTests.rgb(video, frame: frame)
            let red = Self.count(rgb, Self.red), white = Self.count(rgb, Self.white)
            #expect(red.right > 100 && red.left == 0, "frame \(frame): MMM is spoken: \(red)")
            #expect(white.left > 100, "frame \(frame): WWW is white again: \(white)")
        }
        // The cue ends at 3.000 s: frame 75 shows nothing.
        let after = try StillCommandTests.rgb(video, frame: 75)
        #expect(Self.count(after, Self.white).all == 0 && Self.count(after, Self.red).all == 0)
    }

    @Test func aHighlightBoxSitsBehindTheWordAndScaleEnlargesOnlyIt() throws {
        let boxed = try Self.project("box", captions: """
          - file: talk.vtt
            style: { font: DejaVu Sans, weight: bold, size: 40, color: "#ffffff", position: middle,
                     highlight: { color: "#ff0000", box: { color: "#00ff00", padding: 4 }, scale: 1.5 } }
        """, files: ["talk.vtt": Self.twoWords])
        let plain = try Self.project("plain", captions: "  - { file: talk.vtt, style: \(Self.highlightStyle) }", files: ["talk.vtt": Self.twoWords])
        let boxedFrame = try StillCommandTests.rgb(try Self.render(boxed), frame: 60)
        let plainFrame = try StillCommandTests.rgb(try Self.render(plain), frame: 60)
        let green = Self.count(boxedFrame, Self.green)
        let box = try #require(Self.columns(boxedFrame, Self.green)), www = try #require(Self.columns(boxedFrame, Self.white))
        // Scaled 1.5× about its centre, MMM and its box reach over WWW's last letter, no further.
        #expect(green.right > 200 && box.lowerBound > (www.lowerBound + www.upperBound) / 2, "the box is behind MMM: \(box), WWW at \(www)")
        let big = try #require(Self.rows(boxedFrame, Self.red)), normal = try #require(Self.rows(plainFrame, Self.red))
        #expect(big.count >= normal.count * 14 / 10, "MMM at 1.5×: \(big) vs \(normal)")
        // The unspoken word keeps its size and place.
        #expect(Self.rows(boxedFrame, Self.white) == Self.rows(plainFrame, Self.white))
    }

    @Test func revealedWordsAppearWhenSpokenAndKeepTheirPlace() throws {
        let project = try Self.project("reveal", captions: """
          - { file: talk.vtt, style: { font: DejaVu Sans, weight: bold, size: 40, color: "#ffffff", position: middle, reveal: word } }
        """, files: ["talk.vtt": Self.twoWords])
        let video = try Self.render(project)
        let early = Self.count(try StillCommandTests.rgb(video, frame: 49), Self.white)
        let late = Self.count(try StillCommandTests.rgb(video, frame: 50), Self.white)
        #expect(early.left > 100 && early.right == 0, "only WWW before 2 s: \(early)")
        #expect(late.right > 100 && late.left == early.left, "MMM from 2 s, WWW unmoved: \(late) vs \(early)")
    }

    @Test func letterRevealShowsAWordsLettersOneByOneWithNothingOfTheRestLeaking() throws {
        // Descenders reach below a line's logical box: hidden letters must not show even there.
        let vtt = "WEBVTT\n\n00:00:01.000 --> 00:00:03.000\nggg <00:00:02.000>ppp\n"
        let project = try Self.project("letters", captions: """
          - { file: talk.vtt, style: { font: DejaVu Sans, size: 40, color: "#ffffff", position: middle, reveal: letter } }
        """, files: ["talk.vtt": vtt])
        let video = try Self.render(project)
        // ppp is spoken from 2 s to 3 s: its letters appear at 2, 2⅓ and 2⅔ s (frames 50, 59, 67).
        let counts = try [49, 50, 58, 59, 67].map { Self.count(try StillCommandTests.rgb(video, frame: $0), Self.white) }
        #expect(counts[0].left > 100 && counts[0].right == 0, "nothing of ppp before 2 s: \(counts[0])")
        #expect(counts[1].right > 20 && counts[1] == counts[2], "one p from 2 s: \(counts[1]), \(counts[2])")
        #expect(counts[3].right > counts[2].right && counts[4].right > counts[3].right, "then two, then three: \(counts)")
        #expect(Set(counts.map(\.left)).count == 1, "ggg never changes: \(counts)")
    }

    @Test func rightToLeftCuesStartOnTheRight() throws {
        let project = try Self.project("rtl", captions: """
          - cues: [{ at: 1s, to: 3s, text: "שלום <00:00:02.000>עולם" }]
            style: { font: DejaVu Sans, size: 40, color: "#ffffff", position: middle, highlight: { color: "#ff0000" } }
        """, files: [:])
        let video = try Self.render(project)
        let first = Self.count(try StillCommandTests.rgb(video, frame: 30), Self.red)
        let second = Self.count(try StillCommandTests.rgb(video, frame: 55), Self.red)
        #expect(first.right > 50 && first.left == 0, "the first Hebrew word is on the right: \(first)")
        #expect(second.left > 50 && second.right == 0, "the second on the left: \(second)")
    }

    /// The lines `reel graph` lists for the first caption layer ("/" between lines).
    static func listedLines(_ project: String) throws -> [String] {
        let run = try ReelCommand.run(["graph", project])
        try #require(run.status == 0, "\(run.standardError)")
        let line = try #require(run.standardOutput.split(separator: "\n").first { $0.contains("caption \"") })
        let text = line.split(separator: "\"", omittingEmptySubsequences: false)[1]
        return text.split(separator: "/").map { String($0) }
    }

    @Test func longCuesWrapIntoBalancedLinesNeverLeavingAWordAlone() throws {
        // Pango's own wrapping at 240 px (pango-view --width=180pt) puts six words on the first
        // line (209 px) and "seven" alone on the second; the whole text is 264 px wide.
        let text = "one two three four five six seven"
        let project = try Self.project("balanced", captions: """
          - cues: [{ at: 0s, to: 3s, text: "\(text)" }]
            style: { font: DejaVu Sans, size: 16, wrap_width: 240, max_lines: 3 }
        """, files: [:])
        let lines = try Self.listedLines(project)
        #expect(lines.count == 2, "\(lines)")
        #expect(lines.allSatisfy { $0.split(separator: " ").count >= 3 }, "balanced: \(lines)")
        #expect(lines.joined(separator: " ") == text)
        // Pixels: both lines are drawn, of similar widths.
        let rgb = try StillCommandTests.rgb(try Self.render(project), frame: 25)
        var widths: [Int] = []
        let rows = try #require(Self.rows(rgb, Self.white))
        let middle = (rows.lowerBound + rows.upperBound) / 2
        for range in [rows.lowerBound..<middle, middle..<(rows.upperBound + 1)] {
            var xs: [Int] = []
            for y in range { for x in 0..<320 where Self.white(rgb[(y * 320 + x) * 3], rgb[(y * 320 + x) * 3 + 1], rgb[(y * 320 + x) * 3 + 2]) { xs.append(x) } }
            widths.append((xs.max() ?? 0) - (xs.min() ?? 0))
        }
        #expect(widths.allSatisfy { $0 > 100 && $0 <= 240 } && abs(widths[0] - widths[1]) < 40, "line widths \(widths)")
    }

    @Test func cjkCuesBreakBetweenCharactersIntoEvenLines() throws {
        let text = "字幕は話す速さで表示されます"
        let project = try Self.project("cjk", captions: """
          - cues: [{ at: 0s, to: 3s, text: "\(text)" }]
            style: { font: Noto Sans CJK JP, size: 30, wrap_width: 280, language: ja }
        """, files: [:])
        let lines = try Self.listedLines(project)
        #expect(lines.count == 2 && lines.joined() == text, "\(lines)")
        #expect(abs(lines[0].count - lines[1].count) <= 1, "even: \(lines)")
        let rgb = try StillCommandTests.rgb(try Self.render(project), frame: 25)
        #expect(Self.count(rgb, Self.white).all > 500)
    }

    @Test func aCueFileIsAnInputOfTheSegmentsItShowsIn() throws {
        let project = try Self.project("inputs", captions: "  - { file: talk.vtt, style: \(Self.highlightStyle) }", files: ["talk.vtt": Self.twoWords])
        let yaml = try String(contentsOfFile: project, encoding: .utf8).replacingOccurrences(of: "audio: { codec: flac }", with: "audio: { codec: flac }\n  segment: 1s")
        try yaml.write(toFile: project, atomically: true, encoding: .utf8)
        func keys() throws -> [String] {
            let run = try ReelCommand.run(["plan", project, "--json"])
            try #require(run.status == 0, "\(run.standardError)")
            let plan = try JSONSerialization.jsonObject(with: Data(run.standardOutput.utf8)) as? [String: Any]
            return (plan?["segments"] as? [[String: Any]] ?? []).compactMap { $0["key"] as? String }
        }
        let before = try keys()
        let vtt = project.replacingOccurrences(of: "project.yaml", with: "talk.vtt")
        try Self.twoWords.replacingOccurrences(of: "MMM", with: "NNN").write(toFile: vtt, atomically: true, encoding: .utf8)
        let after = try keys()
        #expect(before.count == 4 && after.count == 4)
        // Segments 0 and 3 (0–1 s, 3–4 s) show no cue; 1 and 2 show the changed one.
        #expect(before[0] == after[0] && before[3] == after[3] && before[1] != after[1] && before[2] != after[2])
        let overwrite = try ReelCommand.run(["render", project, "-o", vtt, "--progress", "none"])
        #expect(overwrite.status == 73 && overwrite.standardError.contains("cue file"), "\(overwrite.standardError)")
    }

    @Test(arguments: [
        ("bad.srt", "1\n00:00:01,000 --> 00:00:02,000\nHello\n\n2\n00:00:03,000 -> 00:00:04,000\nWorld\n", "bad.srt:6:1: error: expected a cue's times"),
        ("bad.srt", "1\n00:00:01,000 --> 00:00:02,000\nHello\n\n2\n00:00:03,000 --> 00:00:4,000\nWorld\n", "bad.srt:6:18: error: '00:00:4,000' is not a cue time"),
        ("bad.vtt", "1\n00:00:01.000 --> 00:00:02.000\nHello\n", "bad.vtt:1:1: error: a WebVTT file starts with the line 'WEBVTT'"),
        ("bad.vtt", "WEBVTT\n\n00:01.000 --> 00:02.000\nHello <00:01.500>big\n\n00:03.000 --> 00:04.000\nA <00:00:05.000>late word\n", "bad.vtt:7:3: error: the timestamp <00:00:05.000> is after the cue's end"),
        ("bad.vtt", "WEBVTT\n\n00:03.000 --> 00:02.000\nBackwards\n", "bad.vtt:3:15: error: the cue ends (00:02.000) before it starts (00:03.000)"),
        ("bad.json", "{\"segments\": [{\"start\": 1, \"end\": 2,\n  \"words\": [{\"word\": \"Hi\", \"start\": 1}]}]}", "bad.json:2:13: error: expected 'end' in seconds"),
    ])
    func validateReportsMalformedCueFilesAtTheirLines(file: String, text: String, expected: String) throws {
        let project = try Self.project("invalid-\(file)", captions: "  - { file: \(file) }", files: [file: text])
        let run = try ReelCommand.run(["validate", project])
        #expect(run.status == 65, "\(run.standardError)")
        #expect(run.standardError.contains(expected), "\(run.standardError)")
    }

    @Test func aMissingCueFileIsAMissingFile() throws {
        let project = try Self.project("missing", captions: "  - { file: nowhere.srt }", files: [:])
        let run = try ReelCommand.run(["validate", project])
        #expect(run.status == 66 && run.standardError.contains("nowhere.srt not found"), "\(run.standardError)")
    }
}
