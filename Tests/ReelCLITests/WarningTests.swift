import Foundation
import TestSupport
import Testing

/// What renders but is hardly what was meant is a warning at the line that causes it: printed
/// by validate, render and plan (exit 0), listed in `plan --json`, and an error under `--strict`.
@Suite struct WarningTests {
    static let folder = MediaFactory.folder("warnings")

    /// 4 s of picture (silent), 8 s of music.
    static func media() throws -> (video: String, music: String) {
        (try MediaFactory.file("warnings-v.mp4", ["-f", "lavfi", "-i", "testsrc2=size=320x180:rate=30:duration=4", "-an"]),
         try MediaFactory.file("warnings-music.wav", ["-f", "lavfi", "-i", "sine=frequency=300:duration=8"]))
    }

    static func project(_ name: String, _ text: String) throws -> String {
        let path = folder.appendingPathComponent(name).path
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    /// The 4 s picture with the music under it, its clip at line 9 with `musicLines` added.
    static func withMusic(_ name: String, _ musicLines: String = "") throws -> String {
        let (video, music) = try media()
        return try project(name, """
            reel: 1
            output: { size: [320, 180], fps: 30 }
            media: { v: \(video), music: \(music) }
            video:
              - clips:
                  - media: v
            audio:
              - clips:
                  - media: music
            """ + musicLines)
    }

    static func soundAfterThePictures() throws -> String { try withMusic("sound-after.yaml") }

    @Test func soundAfterTheLastPictureIsAWarningAtTheSoundAndAnErrorUnderStrict() throws {
        let path = try Self.soundAfterThePictures()
        let run = try ReelCommand.run(["validate", path])
        #expect(run.status == 0, "\(run.standardError)")
        #expect(run.standardOutput.contains("valid"))
        #expect(run.standardError.contains("sound-after.yaml:9:9: warning: the sound goes on 4s after the last picture (which ends at 00:00:04.000)"),
                "\(run.standardError)")
        let strict = try ReelCommand.run(["validate", "--strict", path])
        #expect(strict.status == 65)
        #expect(strict.standardError.contains("sound-after.yaml:9:9: error: the sound goes on 4s"), "\(strict.standardError)")
        #expect(strict.standardError.contains("--strict makes this warning an error"))
    }

    @Test func renderPrintsTheWarningAndRendersOrStopsUnderStrict() throws {
        let path = try Self.soundAfterThePictures()
        let out = Self.folder.appendingPathComponent("sound-after.mp4").path
        try? FileManager.default.removeItem(atPath: out)
        let strict = try ReelCommand.run(["render", path, "-o", out, "--strict"])
        #expect(strict.status == 65)
        #expect(!FileManager.default.fileExists(atPath: out))
        let run = try ReelCommand.run(["render", path, "-o", out])
        #expect(run.status == 0, "\(run.standardError)")
        #expect(run.standardError.contains("sound-after.yaml:9:9: warning: the sound goes on"), "\(run.standardError)")
        #expect(FileManager.default.fileExists(atPath: out))
    }

    @Test func planJSONListsTheWarnings() throws {
        let run = try ReelCommand.run(["plan", try Self.soundAfterThePictures(), "--json"])
        #expect(run.status == 0, "\(run.standardError)")
        let listing = try JSONSerialization.jsonObject(with: Data(run.standardOutput.utf8)) as? [String: Any]
        let warnings = listing?["warnings"] as? [[String: Any]]
        #expect(warnings?.count == 1)
        #expect(warnings?.first?["line"] as? Int == 9)
        #expect(warnings?.first?["severity"] as? String == "warning")
        #expect((warnings?.first?["message"] as? String)?.hasPrefix("the sound goes on") == true)
    }

    @Test func eachSurpriseIsReportedAtItsLine() throws {
        let (video, music) = try Self.media()
        let path = try Self.project("surprises.yaml", """
            reel: 1
            output:
              size: [320, 180]
              fps: 30
              duration: 3s
            media: { v: \(video), music: \(music) }
            video:
              - clips:
                  - { media: v, fade_out: 1s }
            overlays:
              - text: "A headline far too long for this frame"
                duration: 2s
                style: { size: 40 }
              - text: "Slides in"
                duration: 5s
                position:
                  - { at: 0s, value: [-200, 90] }
                  - { at: 1s, value: [160, 90] }
                opacity:
                  - { at: 0s, value: 1 }
                  - { at: 4s, value: 0 }
            captions:
              - cues:
                  - { at: 0s, duration: 1s, text: "hello there" }
                style: { highlight: { color: yellow } }
            """)
        let run = try ReelCommand.run(["validate", path])
        #expect(run.status == 0, "\(run.standardError)")
        let warnings = run.standardError.split(separator: "\n").filter { $0.contains(": warning: ") }.map(String.init)
        let expected = [
            "\(path):5:13: warning: output.duration (3s) ends the video before overlays[1] does (at 00:00:05.000)",
            "\(path):11:5: warning: this text runs outside the frame (320x180) by",
            "\(path):21:9: warning: this keyframe is at 00:00:04.000, after the video ends (00:00:03.000)",
            "\(path):25:25: warning: highlight marks the word being spoken, but no cue of this track times its words",
        ]
        #expect(warnings.count == expected.count, "\(run.standardError)")
        for (line, want) in zip(warnings, expected) { #expect(line.hasPrefix(want), "\(line)") }
        // The text that slides in from outside the frame is no mistake: no warning at line 14.
        #expect(!run.standardError.contains("\(path):14:"))
    }

    /// Music shorter than what its clip asks ends where it ends: a warning at the clip (an error
    /// under --strict), the tone up to the media's end, then silence; a video clip reading past
    /// its media's end stays an error.
    @Test func soundShorterThanItsClipEndsWhereItEnds() throws {
        let path = try Self.withMusic("short-music.yaml", "\n        from: 6s\n        duration: 4s\n")
        let run = try ReelCommand.run(["validate", path])
        #expect(run.status == 0, "\(run.standardError)")
        #expect(run.standardError.contains("\(path):9:9: warning: the clip asks for 'music' up to 00:00:10.000 but it ends at 00:00:08.000: the clip ends there, 2s early"),
                "\(run.standardError)")
        #expect(run.standardError.contains("write loop: true to repeat it, or a shorter 'duration'"), "\(run.standardError)")
        #expect(try ReelCommand.run(["validate", "--strict", path]).status != 0)

        let output = Self.folder.appendingPathComponent("short-music.wav").path
        let render = try ReelCommand.run(["render", path, "-o", output, "--progress", "none"])
        #expect(render.status == 0, "\(render.standardError)")
        let raw = output + ".f32"
        try MediaFactory.ffmpeg(["-i", output, "-ac", "1", "-ar", "48000", "-f", "f32le", raw])
        let samples = try Data(contentsOf: URL(fileURLWithPath: raw)).withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }
        func rms(_ from: Double, _ to: Double) -> Float {
            let part = samples[Int(from * 48000)..<min(samples.count, Int(to * 48000))]
            return (part.reduce(0) { $0 + $1 * $1 } / Float(max(1, part.count))).squareRoot()
        }
        // The video's 4 s, the tone's last 2 s (lavfi's sine is at 1/8 of full scale, RMS 0.088), then nothing.
        #expect(abs(Double(samples.count) / 48000 - 4) < 0.03, "\(samples.count) samples")
        #expect(rms(0.1, 1.9) > 0.05, "\(rms(0.1, 1.9))")
        #expect(rms(2.05, 3.95) == 0, "\(rms(2.05, 3.95))")

        let video = try Self.media().video
        let pictures = try Self.project("short-video.yaml", """
            reel: 1
            output: { size: [320, 180], fps: 30 }
            media: { v: \(video) }
            video:
              - clips:
                  - { media: v, duration: 5s }
            """)
        let refused = try ReelCommand.run(["validate", pictures])
        #expect(refused.status != 0)
        #expect(refused.standardError.contains("error: the clip reads 'v' up to 00:00:05.000 but the media ends at 00:00:04.000"), "\(refused.standardError)")
    }

    @Test func aProjectWithoutSurprisesHasNoWarnings() throws {
        let (video, _) = try Self.media()
        let path = try Self.project("plain.yaml", """
            reel: 1
            output: { size: [320, 180], fps: 30 }
            media: { v: \(video) }
            video:
              - clips:
                  - media: v
            overlays:
              - { text: "Fits", style: { size: 30 } }
            """)
        let run = try ReelCommand.run(["validate", "--strict", path])
        #expect(run.status == 0, "\(run.standardError)")
        #expect(run.standardError.isEmpty, "\(run.standardError)")
    }
}
