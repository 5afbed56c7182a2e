import Foundation
import TestSupport
import Testing

/// Nested projects (a project used as a clip's media), on real media made with ffmpeg's lavfi
/// sources: exact frames and samples at 1:1, vars passed per clip, the errors `reel validate`
/// finds in nested files (cycles, missing files, their own mistakes) with the chain of files,
/// `reel graph`'s listing, and segments: the same bytes for any jobs, keys that follow the
/// nested file and its media.
@Suite(.serialized) struct NestedProjectTests {
    static let folder: URL = MediaFactory.folder("nested")

    func path(_ name: String) -> String { Self.folder.appendingPathComponent(name).path }

    /// Writes `text` as `name` in the folder (with the media the projects use); returns its path.
    @discardableResult
    func write(_ name: String, _ text: String) throws -> String {
        let media: [(String, [String])] = [
            ("moving.mp4", ["-f", "lavfi", "-i", "testsrc2=s=320x240:r=25:d=4", "-c:v", "libx264", "-pix_fmt", "yuv420p"]),
            ("tone.wav", ["-f", "lavfi", "-i", "sine=frequency=440:sample_rate=48000:d=4", "-af", "volume=0.3"]),
        ]
        for (file, arguments) in media where !FileManager.default.fileExists(atPath: path(file)) {
            try MediaFactory.ffmpeg(arguments + [path(file)])
        }
        try text.write(toFile: path(name), atomically: true, encoding: .utf8)
        return path(name)
    }

    /// The inner project: moving video, a text with a var, a moving box, a tone; 2 s of 320x240 at 25 fps.
    func inner(_ name: String = "inner.yaml", output: String = "size: [320, 240]\n  fps: 25\n  video: { codec: h264, crf: 0, preset: ultrafast }") throws -> String {
        try write(name, """
        reel: 1
        vars:
          title: { type: string, default: "Inner" }
        output:
          \(output)
        media:
          moving: moving.mp4
          tone: tone.wav
        video:
          - clips:
              - media: moving
                from: 1s
                duration: 2s
        audio:
          - clips:
              - media: tone
                duration: 2s
                fade_in: 0.5s
        overlays:
          - text: "{{ title }}"
            position: ["50%", "30%"]
            style: { font: DejaVu Sans, size: 40, color: "#ffff00" }
          - rect: true
            fill: "#ff000080"
            size: [60, 40]
            position: [{ at: 0, value: [40, 200] }, { at: end, value: [280, 200] }]
        """)
    }

    func reel(_ arguments: [String]) throws -> ReelRun { try ReelCommand.run(arguments) }

    func render(_ project: String, _ output: String, _ extra: [String] = []) throws -> String {
        let out = path(output)
        let run = try reel(["render", project, "-o", out, "--progress", "none", "--no-cache"] + extra)
        #expect(run.status == 0, "\(run.standardError)")
        return out
    }

    /// ffmpeg's per-frame hashes of the decoded video and audio (the muxer's version line left out).
    func framemd5(_ file: String, _ stream: String = "0") throws -> [String] {
        try MediaFactory.run("ffmpeg", ["-hide_banner", "-nostdin", "-v", "error", "-i", file, "-map", stream, "-f", "framemd5", "-"])
            .split(separator: "\n").filter { !$0.hasPrefix("#") }.map(String.init)
    }

    @Test func aNestedProjectAtOneToOneRendersTheFramesAndSamplesOfRenderingItAlone() throws {
        let inner = try inner()
        let outer = try write("outer.yaml", """
        reel: 1
        output: { size: [320, 240], fps: 25, video: { codec: h264, crf: 0, preset: ultrafast } }
        media: { inner: inner.yaml }
        video:
          - clips:
              - media: inner
                vars: { title: "Inner" }
        """)
        let alone = try framemd5(try render(inner, "alone.mkv"))
        let nested = try framemd5(try render(outer, "nested.mkv"))
        #expect(alone.count == 50 + alone.filter { $0.hasPrefix("1,") }.count, "50 frames and the audio packets")
        #expect(nested == alone)
    }

    @Test func clipsPassTheirOwnVarsAndAreTrimmedAndPlacedLikeVideo() throws {
        try inner()
        let outer = try write("vars.yaml", """
        reel: 1
        output: { size: [320, 240], fps: 25, video: { codec: h264, crf: 0, preset: ultrafast } }
        media: { inner: inner.yaml }
        video:
          - clips:
              - media: inner
                vars: { title: "First" }
                duration: 1s
              - media: inner
                vars: { title: "Second" }
                from: 1s
        """)
        let frames = try framemd5(try render(outer, "vars.mkv"), "0:v")
        #expect(frames.count == 50)
        // Frame 25 (the second clip from 1 s of the inner timeline) against the inner
        // project's frame 25 rendered with that title.
        let second = try write("second.yaml", try String(contentsOfFile: path("inner.yaml"), encoding: .utf8)
            .replacingOccurrences(of: "default: \"Inner\"", with: "default: \"Second\""))
        let alone = try framemd5(try render(second, "second.mkv"), "0:v")
        func hash(_ line: String) -> Substring { line.split(separator: ",").last! }
        #expect(hash(frames[25]) == hash(alone[25]) && hash(frames[49]) == hash(alone[49]))
        #expect(hash(frames[0]) != hash(alone[0]), "the first clip shows another title")
    }

    @Test func aVarTheNestedProjectDoesNotDeclareIsAnErrorAtTheClip() throws {
        try inner()
        let outer = try write("badvar.yaml", """
        reel: 1
        output: { size: [320, 240], fps: 25 }
        media: { inner: inner.yaml }
        video:
          - clips:
              - media: inner
                vars: { titel: "x" }
        """)
        let run = try reel(["validate", outer])
        #expect(run.status == 65)
        #expect(run.standardError.contains("badvar.yaml:7:"), "\(run.standardError)")
        #expect(run.standardError.contains("in nested project badvar.yaml → inner.yaml:"), "\(run.standardError)")
        #expect(run.standardError.contains("titel"), "\(run.standardError)")
    }

    @Test func cyclesAndMissingFilesAreFoundByValidateWithTheChain() throws {
        let a = try write("a.yaml", """
        reel: 1
        output: { size: [320, 240], fps: 25 }
        media: { b: b.yaml }
        video:
          - clips:
              - media: b
        """)
        try write("b.yaml", """
        reel: 1
        output: { size: [320, 240], fps: 25 }
        media: { a: a.yaml }
        video:
          - clips:
              - media: a
        """)
        let cycle = try reel(["validate", a])
        #expect(cycle.status == 65)
        #expect(cycle.standardError.contains("b.yaml:6:9: error: in nested project a.yaml → b.yaml: nested projects form a cycle: a.yaml → b.yaml → a.yaml"),
                "\(cycle.standardError)")
        let selfish = try write("self.yaml", """
        reel: 1
        output: { size: [320, 240], fps: 25 }
        media: { me: self.yaml }
        video:
          - clips:
              - media: me
        """)
        let own = try reel(["validate", selfish])
        #expect(own.standardError.contains("self.yaml:6:9: error: nested projects form a cycle: self.yaml → self.yaml"), "\(own.standardError)")
        let missing = try write("missing.yaml", """
        reel: 1
        output: { size: [320, 240], fps: 25 }
        media:
          gone: nowhere.yaml
        video:
          - clips:
              - media: gone
        """)
        let lost = try reel(["validate", missing])
        #expect(lost.status == 66)
        #expect(lost.standardError.contains("missing.yaml:4:9: error: nested project 'gone' not found: \(path("nowhere.yaml")) (missing.yaml → nowhere.yaml)"),
                "\(lost.standardError)")
    }

    @Test func theNestedFilesOwnErrorsPointIntoIt() throws {
        try write("broken.yaml", """
        reel: 1
        output: { size: [320, 240], fps: 25 }
        media: { moving: moving.mp4 }
        video:
          - clips:
              - media: moving
                to: 9s
        """)
        let outer = try write("usesbroken.yaml", """
        reel: 1
        output: { size: [320, 240], fps: 25 }
        media: { inner: broken.yaml }
        video:
          - clips:
              - media: inner
        """)
        let run = try reel(["validate", outer])
        #expect(run.status == 65)
        #expect(run.standardError.contains("\(path("broken.yaml")):6:9: error: in nested project usesbroken.yaml → broken.yaml: the clip reads 'moving' up to"),
                "\(run.standardError)")
        #expect(run.standardError.contains("7 |         to: 9s") || run.standardError.contains("6 |       - media: moving"), "the nested file's line is quoted")
    }

    @Test func theGraphListsTheNestedProjectIndentedOncePerVars() throws {
        try inner()
        let outer = try write("graph.yaml", """
        reel: 1
        output: { size: [640, 480], fps: 25 }
        media: { inner: inner.yaml }
        video:
          - clips:
              - media: inner
                vars: { title: "One" }
              - media: inner
                vars: { title: "Two" }
              - media: inner
                vars: { title: "One" }
        """)
        let run = try reel(["graph", outer])
        #expect(run.status == 0, "\(run.standardError)")
        let lines = run.standardOutput.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(lines.filter { $0.hasPrefix("  nested inner (inner.yaml)") } == ["  nested inner (inner.yaml) vars title=\"One\"",
                                                                               "  nested inner (inner.yaml) vars title=\"Two\""])
        #expect(lines.contains("    render 320x240 frame 1/25s (25 fps) background #000000"))
        #expect(lines.contains("    overlays") && lines.contains { $0.hasPrefix("      text \"Two\"") })
    }

    @Test func segmentsAreTheSameBytesForAnyJobsAndTheirKeysFollowTheNestedFileAndItsMedia() throws {
        try inner("keyed-inner.yaml")
        let outer = try write("keyed.yaml", """
        reel: 1
        output: { size: [320, 240], fps: 25, segment: 0.4s, video: { codec: h264, preset: ultrafast } }
        media: { inner: keyed-inner.yaml, moving: moving.mp4 }
        video:
          - clips:
              - media: moving
                duration: 0.8s
              - transition: crossfade
                duration: 0.4s
              - media: inner
                vars: { title: "Keyed" }
        """)
        let outputs = try [1, 2, 3].map { jobs in try Data(contentsOf: URL(fileURLWithPath: try render(outer, "jobs\(jobs).mp4", ["--jobs", String(jobs)]))) }
        #expect(outputs[0] == outputs[1] && outputs[1] == outputs[2])

        func keys() throws -> [String] {
            let run = try reel(["plan", outer, "--json"])
            let json = try JSONSerialization.jsonObject(with: Data(run.standardOutput.utf8)) as? [String: Any]
            return (json?["segments"] as? [[String: Any]] ?? []).compactMap { $0["key"] as? String }
        }
        let before = try keys()
        #expect(before.count == 6)
        // The nested file edited (another title colour): the segments showing it change, the first does not.
        let text = try String(contentsOfFile: path("keyed-inner.yaml"), encoding: .utf8)
        try write("keyed-inner.yaml", text.replacingOccurrences(of: "#ffff00", with: "#00ffff"))
        let edited = try keys()
        #expect(edited[0] == before[0] && edited[1] != before[1] && edited[5] != before[5])
        // Its media replaced by other bytes (the inner project reads tone2/moving2).
        try MediaFactory.ffmpeg(["-f", "lavfi", "-i", "testsrc=s=320x240:r=25:d=4", "-c:v", "libx264", "-pix_fmt", "yuv420p", path("moving2.mp4")])
        try write("keyed-inner.yaml", text.replacingOccurrences(of: "moving: moving.mp4", with: "moving: moving2.mp4"))
        let otherMedia = try keys()
        #expect(otherMedia[0] == before[0] && otherMedia[5] != before[5] && otherMedia[5] != edited[5])
    }
}
