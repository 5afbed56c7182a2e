import Foundation
import TestSupport
import Testing

/// `reel diff` on the command line: its lines, its JSON, its exit statuses like diff's, and
/// the side a problem is on.
@Suite(.serialized) struct DiffCommandTests {
    static let folder = MediaFactory.folder("diff-cli")

    static func project(_ name: String, headline: String = "Spring Sale", extra: String = "") throws -> String {
        let clip = try MediaFactory.file("diff-cli-clip.mp4", ["-f", "lavfi", "-i", "testsrc2=size=160x90:rate=25:duration=3", "-c:v", "libx264"])
        let text = """
            reel: 1
            vars: { headline: \(headline) }
            output: { size: [160, 90], fps: 25, segment: 0.4s }
            media: { clip: \(clip) }
            video: [{ clips: [{ media: clip, duration: 3s }] }]
            overlays: [{ text: "{{ headline }}", at: 1s, duration: 0.6s }]
            \(extra)
            """
        let path = folder.appendingPathComponent(name).path
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    func diff(_ arguments: [String]) throws -> ReelRun {
        try ReelCommand.run(["diff"] + arguments, environment: ["REEL_CACHE_DIR": Self.folder.appendingPathComponent("cache").path])
    }

    @Test func linesJSONAndExitStatusesLikeDiff() throws {
        let old = try Self.project("old.yaml"), new = try Self.project("new.yaml", headline: "Summer Sale")
        let same = try diff([old, old])
        #expect(same.status == 0 && same.standardOutput == "no change: the outputs are byte-identical (3.0 s)\n", "\(same)")
        let changed = try diff([old, new])
        #expect(changed.status == 1, "\(changed.standardError)")
        // The title shows 1–1.6 s: the segments of 0.4 s from 0.8 s to 1.6 s render again.
        #expect(changed.standardOutput == """
            00:00:00.800–00:00:01.600 video: overlays[0].text (via vars.headline)
            0.8 s of 3.0 s video changed; audio unchanged

            """, "\(changed.standardOutput)")
        let json = try diff([old, new, "--json"])
        let report = try #require(try JSONSerialization.jsonObject(with: Data(json.standardOutput.utf8)) as? [String: Any])
        let ranges = try #require(report["changed"] as? [[String: Any]])
        #expect(ranges.count == 1 && ranges[0]["start"] as? Double == 0.8 && ranges[0]["end_exact"] as? String == "8/5"
                && ranges[0]["video"] as? Bool == true && ranges[0]["audio"] as? Bool == false
                && ranges[0]["segments"] as? [Int] == [2, 3] && ranges[0]["causes"] as? [String] == ["overlays[0].text (via vars.headline)"], "\(report)")
        #expect(report["duration_exact"] as? String == "3" && report["identical"] as? Bool == false && json.status == 1)
        // The same value set on both sides: no change.
        #expect(try diff([old, new, "--set", "headline=Autumn"]).status == 0)
    }

    /// A var shown on screen and written into the file's title: the frames' range, and the
    /// title as a change of the file alone.
    @Test func aFileSettingIsToldBesideChangedFrames() throws {
        let old = try Self.project("titled-old.yaml"), new = try Self.project("titled-new.yaml", headline: "Summer Sale")
        for path in [old, new] {
            let text = try String(contentsOfFile: path, encoding: .utf8)
            try text.replacingOccurrences(of: "segment: 0.4s }", with: "segment: 0.4s, metadata: { title: \"{{ headline }}\" } }")
                .write(toFile: path, atomically: true, encoding: .utf8)
        }
        let changed = try diff([old, new])
        #expect(changed.status == 1)
        #expect(changed.standardOutput == """
            00:00:00.800–00:00:01.600 video: overlays[0].text (via vars.headline)
            the file changes, not its frames or sound: output.metadata.title (via vars.headline)
            0.8 s of 3.0 s video changed; audio unchanged

            """, "\(changed.standardOutput)")
    }

    @Test func aProblemNamesItsSide() throws {
        let old = try Self.project("good.yaml")
        let missing = try diff([old, Self.folder.appendingPathComponent("absent.yaml").path])
        #expect(missing.status == 66 && missing.standardError.hasPrefix("the new side ("), "\(missing.standardError)")
        let broken = try Self.project("broken.yaml", extra: "overlays: 3")
        let invalid = try diff([broken, old])
        #expect(invalid.status == 65 && invalid.standardError.hasPrefix("the old side (") && invalid.standardError.contains("broken.yaml:"),
                "\(invalid.standardError)")
        #expect(try diff([old, old, "--rendition", "a", "--all-renditions"]).status == 64)
    }

    @Test func everyRenditionOnItsOwn() throws {
        let renditions = "renditions: { wide: {}, square: { size: [90, 90] } }"
        let old = try Self.project("r-old.yaml", extra: renditions)
        let new = try Self.project("r-new.yaml", extra: renditions.replacingOccurrences(of: "[90, 90]", with: "[100, 100]"))
        let run = try diff([old, new, "--all-renditions"])
        #expect(run.status == 1)
        #expect(run.standardOutput.hasPrefix("rendition wide:\nno change") && run.standardOutput.contains("rendition square:\neverything changes: output.size"),
                "\(run.standardOutput)")
    }

    /// `git diff` with scripts/git-diff-reel as the diff driver of project files shows reel
    /// diff's lines for a commit's change and for the working tree's.
    @Test func gitDiffShowsTheChangedRanges() throws {
        let repo = Self.folder.appendingPathComponent("repo")
        try? FileManager.default.removeItem(at: repo)
        try FileManager.default.createDirectory(at: repo, withIntermediateDirectories: true)
        let project = repo.appendingPathComponent("promo.reel.yaml").path
        // Its media by a relative path: the driver puts the version git gives as a temporary file beside it.
        let clip = try MediaFactory.file("diff-cli-clip.mp4", ["-f", "lavfi", "-i", "testsrc2=size=160x90:rate=25:duration=3", "-c:v", "libx264"])
        try FileManager.default.copyItem(atPath: clip, toPath: repo.appendingPathComponent("clip.mp4").path)
        try String(contentsOfFile: try Self.project("git.yaml"), encoding: .utf8).replacingOccurrences(of: clip, with: "clip.mp4")
            .write(toFile: project, atomically: true, encoding: .utf8)
        try "*.reel.yaml diff=reel\n".write(to: repo.appendingPathComponent(".gitattributes"), atomically: true, encoding: .utf8)
        let environment = ["REEL": ReelCommand.executable.path, "REEL_CACHE_DIR": Self.folder.appendingPathComponent("cache").path]
        func git(_ arguments: String...) throws -> String {
            try MediaFactory.run("git", ["-C", repo.path, "-c", "user.name=Reel", "-c", "user.email=reel@example.com",
                                         "-c", "diff.reel.command=\(repositoryRoot.path)/scripts/git-diff-reel"] + arguments, environment: environment)
        }
        _ = try git("init", "-q")
        _ = try git("add", "-A")
        _ = try git("commit", "-q", "-m", "spring")
        let text = try String(contentsOfFile: project, encoding: .utf8)
        try text.replacingOccurrences(of: "Spring Sale", with: "Summer Sale").write(toFile: project, atomically: true, encoding: .utf8)
        let expected = """
            reel diff promo.reel.yaml
            00:00:00.800–00:00:01.600 video: overlays[0].text (via vars.headline)
            0.8 s of 3.0 s video changed; audio unchanged

            """
        #expect(try git("diff") == expected)
        _ = try git("commit", "-q", "-am", "summer")
        #expect(try git("diff", "HEAD~1", "HEAD") == expected)
        #expect(try git("diff", "--no-ext-diff", "HEAD~1", "HEAD").contains("+vars: { headline: Summer Sale }"))
        #expect(try String(contentsOfFile: project, encoding: .utf8).contains("media: { clip: clip.mp4 }"))
    }
}
