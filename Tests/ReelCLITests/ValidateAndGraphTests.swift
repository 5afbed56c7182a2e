import ArgumentParser
import Foundation
@testable import reel
import TestSupport
import Testing

/// `reel validate` and `reel graph` as a user runs them: exit codes, messages, output. What
/// does not need a process (what `reel validate` says and how it exits for given arguments) is
/// checked in this process, on the command's `Validate.Report`.
@Suite struct ValidateAndGraphTests {
    /// A scratch project folder (in the test media folder, removed at exit) with small media.
    static let project: URL = {
        let dir = MediaFactory.directory.appendingPathComponent("cli-project")
        try? FileManager.default.createDirectory(at: dir.appendingPathComponent("media"), withIntermediateDirectories: true)
        return dir
    }()

    func write(_ name: String, _ text: String) throws -> String {
        let url = Self.project.appendingPathComponent(name)
        try text.write(to: url, atomically: true, encoding: .utf8)
        return url.path
    }

    /// A 3 s clip at media/clip.mp4 in the project folder, made once for all tests of the suite
    /// (they run in parallel, so it must not be re-copied per test).
    static let clip: Result<String, any Error> = Result {
        let clip = try MediaFactory.file("cli-clip.mp4", ["-f", "lavfi", "-i", "testsrc2=size=320x180:rate=25:duration=3",
                                                           "-f", "lavfi", "-i", "sine=frequency=440:sample_rate=48000:duration=3",
                                                           "-c:v", "libx264", "-preset", "ultrafast", "-c:a", "aac", "-shortest"])
        let target = project.appendingPathComponent("media/clip.mp4")
        try FileManager.default.copyItem(atPath: clip, toPath: target.path)
        return target.path
    }

    func media() throws -> String { try Self.clip.get() }

    /// `reel validate ARGUMENTS` run in this process: what it would print, and its exit status.
    func validate(_ arguments: [String]) throws -> Validate.Report { try Validate.parse(arguments).check() }

    @Test func aValidProjectExitsZeroAndSaysSo() throws {
        _ = try media()
        let path = try write("ok.yaml", """
            reel: 1
            output: { size: [320, 180], fps: 25 }
            media: { clip: media/clip.mp4 }
            video:
              - clips:
                  - media: clip
                    from: 0.5s
            """)
        let run = try ReelCommand.run(["validate", path])
        #expect(run.status == 0, "\(run.standardError)")
        #expect(run.standardOutput.contains("valid (2.5s"))
    }

    /// The project file limits are the environment's: a file over `REEL_PROJECT_MAX` or with
    /// more values than `REEL_PROJECT_MAX_VALUES` is refused before it is read, naming the
    /// setting; a malformed setting is a usage error.
    @Test func theProjectLimitsAreSetByTheEnvironment() throws {
        _ = try media()
        let clips = String(repeating: "      - { media: clip, from: 0s, to: 0.1s }\n", count: 40)
        let path = try write("limits.yaml", """
            reel: 1
            output: { size: [320, 180], fps: 25 }
            media: { clip: media/clip.mp4 }
            video:
              - clips:

            """ + clips)
        #expect(try ReelCommand.run(["validate", path]).status == 0)
        let big = try ReelCommand.run(["validate", path], environment: ["REEL_PROJECT_MAX": "1K"])
        #expect(big.status == 65)
        #expect(big.standardError.contains("\(path):1:1: error: the file is larger than 1024 bytes, the limit for project files (REEL_PROJECT_MAX sets it)"),
                "\(big.standardError)")
        let many = try ReelCommand.run(["validate", path], environment: ["REEL_PROJECT_MAX_VALUES": "100"])
        #expect(many.status == 65)
        #expect(many.standardError.contains("error: the document has more than 100 values (REEL_PROJECT_MAX_VALUES sets it)"), "\(many.standardError)")
        #expect(try ReelCommand.run(["validate", path], environment: ["REEL_PROJECT_MAX_VALUES": "1000"]).status == 0)
        let malformed = try ReelCommand.run(["validate", path], environment: ["REEL_PROJECT_MAX": "lots"])
        #expect(malformed.status == 64)
        #expect(malformed.standardError.contains("REEL_PROJECT_MAX must be a number of bytes like 8M or 64M, not 'lots'"), "\(malformed.standardError)")
    }

    @Test func aRangePastTheMediaEndIsReportedAtItsLine() throws {
        _ = try media()
        let path = try write("past-end.yaml", """
            reel: 1
            output: { size: [320, 180], fps: 25 }
            media: { clip: media/clip.mp4 }
            video:
              - clips:
                  - media: clip
                    from: 1s
                    to: 5s
            """)
        let run = try validate([path])
        #expect(run.status == 65)
        #expect(run.output.isEmpty)
        #expect(run.errors.contains("past-end.yaml:6:9: error: the clip reads 'clip' up to 00:00:05.000 but the media ends at 00:00:03.000"), "\(run.errors)")
        #expect(run.errors.contains("      - media: clip"))
    }

    @Test func aFileThatIsNotMediaIsReported() throws {
        let fake = Self.project.appendingPathComponent("media/notes.mp4")
        try "not a video".write(to: fake, atomically: true, encoding: .utf8)
        let path = try write("not-media.yaml", """
            reel: 1
            output: { size: [320, 180], fps: 25 }
            media: { notes: media/notes.mp4 }
            video:
              - clips:
                  - media: notes
                    duration: 1s
            """)
        let run = try validate([path])
        #expect(run.status == 65)
        #expect(run.errors.contains("not-media.yaml:3:17: error: media file 'notes'"), "\(run.errors)")
    }

    @Test func aMissingAudioStreamIsReported() throws {
        let silent = try MediaFactory.file("cli-silent.mp4", ["-f", "lavfi", "-i", "testsrc2=size=320x180:rate=25:duration=2", "-c:v", "libx264", "-preset", "ultrafast"])
        let path = try write("no-audio.yaml", """
            reel: 1
            output: { size: [320, 180], fps: 25 }
            media: { silent: \(silent) }
            audio:
              - clips:
                  - media: silent
            """)
        let run = try validate([path])
        #expect(run.status == 65)
        #expect(run.errors.contains("no-audio.yaml:6:9: error: 'silent' has no audio stream"), "\(run.errors)")
    }

    @Test func missingFilesExit66() throws {
        let run = try validate([Self.project.appendingPathComponent("nowhere.yaml").path])
        #expect(run.status == 66)
        #expect(run.errors.contains("no such file"), "\(run.errors)")
        // The process exits with the same status.
        #expect(try ReelCommand.run(["validate", Self.project.appendingPathComponent("nowhere.yaml").path]).status == 66)
    }

    @Test func badUsageExits64() throws {
        do {
            _ = try Validate.parse(["--no-such-flag", "x.yaml"])
            Issue.record("an unknown option was parsed")
        } catch {
            #expect(Validate.exitCode(for: error) == ExitCode(64))
            #expect(Validate.message(for: error).contains("Unknown option '--no-such-flag'"), "\(Validate.message(for: error))")
        }
        #expect(try ReelCommand.run(["validate", "--no-such-flag", "x.yaml"]).status == 64)
    }

    @Test func allErrorsOfAFileAreReportedInOneRun() throws {
        let path = try write("several.yaml", """
            reel: 1
            output: { size: [320, 180], fps: 25, background: "#12" }
            video:
              - clips:
                  - colour: red
                    duration: 1s
                  - color: blue
                    duration: -1s
            """)
        let run = try validate([path])
        #expect(run.status == 65)
        #expect(run.errors.contains("several.yaml:2:50:"), "\(run.errors)")
        #expect(run.errors.contains("several.yaml:5:9: error: unknown key 'colour'"))
        #expect(run.errors.contains("did you mean 'color'?"))
    }

    @Test func setOverridesAVarAndUnknownVarsAreErrors() throws {
        let path = try write("vars.yaml", """
            reel: 1
            vars: { length: 2s }
            output: { size: [320, 180], fps: 25 }
            video:
              - clips:
                  - color: white
                    duration: "{{ length }}"
            """)
        let ok = try validate([path, "--set", "length=3s"])
        #expect(ok.status == 0, "\(ok.errors)")
        #expect(ok.output.count == 1 && ok.output[0].hasPrefix("\(path): valid (3s"), "\(ok.output)")
        let bad = try validate([path, "--set", "lenght=3s"])
        #expect(bad.status == 65)
        #expect(bad.errors.contains("unknown var 'lenght'"), "\(bad.errors)")
    }

    @Test func graphListsTracksInstructionsAndIsStable() throws {
        _ = try media()
        let path = try write("graph.yaml", """
            reel: 1
            output: { size: [320, 180], fps: 25 }
            media: { clip: media/clip.mp4 }
            video:
              - clips:
                  - media: clip
                    duration: 2s
                  - transition: crossfade
                    duration: 0.5s
                  - media: clip
                    from: 1s
            """)
        let first = try ReelCommand.run(["graph", path])
        let second = try ReelCommand.run(["graph", path])
        #expect(first.status == 0, "\(first.standardError)")
        #expect(first.standardOutput == second.standardOutput)
        #expect(first.standardOutput.contains("composition [0, 7/2) 00:00:00.000–00:00:03.500"))
        #expect(first.standardOutput.contains("[3/2, 2) 00:00:01.500–00:00:02.000 background #000000"))
        let json = try ReelCommand.run(["graph", path, "--json"])
        #expect(json.status == 0)
        let object = try JSONSerialization.jsonObject(with: Data(json.standardOutput.utf8)) as? [String: Any]
        #expect(object?["composition"] != nil && object?["videoComposition"] != nil && object?["audioMix"] != nil)
    }

    @Test func helpReadsWell() throws {
        let run = try ReelCommand.run(["--help"])
        #expect(run.status == 0)
        for command in ["validate", "graph", "probe"] { #expect(run.standardOutput.contains(command)) }
    }

    /// Hints that say what to change: the bound on the `duration` the clip gave, no transition
    /// error caused by an unknown clip before it, a caption's font at its `font:` line, and the
    /// file whose name differs only in case.
    @Test func hintsPointAtTheFix() throws {
        let folder = MediaFactory.folder("hints")
        let logo = try MediaFactory.file("hints-logo.png", ["-f", "lavfi", "-i", "color=c=blue:s=32x32", "-frames:v", "1"])
        try? FileManager.default.removeItem(at: folder.appendingPathComponent("logo.png"))
        try FileManager.default.copyItem(atPath: logo, toPath: folder.appendingPathComponent("logo.png").path)
        let twelveSeconds = try MediaFactory.file("hints-12s.mp4", ["-f", "lavfi", "-i", "testsrc2=s=64x36:r=25:d=12"])
        let project = folder.appendingPathComponent("project.yaml").path
        try """
            reel: 1
            output: { size: [160, 90], fps: 25 }
            media: { a: \(twelveSeconds), logo: logo.PNG }
            video:
              - clips:
                  - { media: nosuch, duration: 2s }
                  - { transition: crossfade, duration: 0.5s }
                  - { media: a, from: 5s, duration: 12s }
                  - { media: a, from: 2s, to: 13s }
                  - { media: logo, duration: 1s }
            captions:
              - cues: [{ at: 0.5s, to: 1.8s, text: "Hello" }]
                style:
                  size: 20
                  font: No Such Font Family
            """.write(toFile: project, atomically: true, encoding: .utf8)
        let run = try ReelCommand.run(["validate", project])
        #expect(run.status == 66) // a named file is missing
        let err = run.standardError
        #expect(err.contains("project.yaml:3:"), "\(err)")
        #expect(err.contains("hint: did you mean 'logo.png'? (names are case-sensitive)"), "\(err)")
        #expect(err.contains("project.yaml:6:9: error: unknown media 'nosuch'"), "\(err)")
        #expect(!err.contains("transition is after"), "\(err)")
        #expect(err.contains("hint: shorten the clip ('duration' ≤ 7s from 5s) or pick another range"), "\(err)")
        #expect(err.contains("hint: shorten the clip ('to' ≤ 12s) or pick another range"), "\(err)")
        #expect(err.contains("project.yaml:15:13: error: font family 'No Such Font Family' is not available"), "\(err)")
    }
}
