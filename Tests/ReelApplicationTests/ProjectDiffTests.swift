import Digest
import Foundation
import MediaTime
import ProjectDiff
import ProjectFile
import ReelApplication
import RenderEngine
import TestSupport
import Testing

/// `reel diff`'s comparison against what a cached render really does: the ranges it reports
/// are the segments a render re-renders, its audio verdict is whether the join mixes again,
/// and "no change" means the same bytes.
@Suite(.serialized) struct ProjectDiffTests {
    static let folder = MediaFactory.folder("project-diff")

    static func media() throws -> (a: String, other: String, b: String, music: String) {
        (try MediaFactory.file("diff-a.mp4", ["-f", "lavfi", "-i", "testsrc2=size=160x90:rate=25:duration=3", "-f", "lavfi", "-i", "sine=frequency=440:duration=3",
                                               "-c:v", "libx264", "-c:a", "aac", "-shortest"]),
         try MediaFactory.file("diff-a-other.mp4", ["-f", "lavfi", "-i", "testsrc=size=160x90:rate=25:duration=3", "-f", "lavfi", "-i", "sine=frequency=660:duration=3",
                                                     "-c:v", "libx264", "-c:a", "aac", "-shortest"]),
         try MediaFactory.file("diff-b.mp4", ["-f", "lavfi", "-i", "smptebars=size=160x90:rate=25:duration=3", "-c:v", "libx264"]),
         try MediaFactory.file("diff-music.m4a", ["-f", "lavfi", "-i", "sine=frequency=330:duration=3", "-c:a", "aac"]))
    }

    /// The fields the edits change.
    struct Fields: Equatable {
        var title = "One"
        var volume = "0.8"
        var from = "0s"
        var transition = "0.4s"
        var crf = 23
        var otherMedia = false
    }

    /// A folder holding the project with `fields` and its own copy of the media (so each
    /// version keeps its bytes, as a git revision does).
    static func version(_ name: String, _ f: Fields) throws -> String {
        let m = try media()
        let dir = folder.appendingPathComponent(name)
        try? FileManager.default.removeItem(at: dir)
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: f.otherMedia ? m.other : m.a, toPath: dir.appendingPathComponent("a.mp4").path)
        let text = """
            reel: 1
            vars: { title: \(f.title) }
            output: { size: [160, 90], fps: 25, segment: 0.4s, path: \(dir.path)/out.mp4, video: { crf: \(f.crf), preset: ultrafast } }
            media: { a: a.mp4, b: \(m.b), music: \(m.music) }
            video:
              - clips:
                  - { media: a, from: \(f.from), duration: 1s }
                  - { transition: crossfade, duration: \(f.transition) }
                  - { media: b, duration: 1.2s }
            audio:
              - clips: [{ media: music, duration: 1.6s, volume: \(f.volume) }]
            overlays:
              - { text: "{{ title }}", at: 0.9s, duration: 0.3s }
            """
        let path = dir.appendingPathComponent("project.yaml").path
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    static func render(_ project: String, cache: String) throws -> (report: ExportSession.Report, output: String) {
        let request = RenderRequest(projectPath: project, document: try DocumentLoader.load(path: project), vars: VarInputs(), varsFile: nil, output: nil,
                                    range: nil, audioOnly: false, preset: nil, decoderThreads: 1, jobs: 2, partsFolder: cache)
        let session = try WorkspaceTests.workspace().prepareRender(request, needsOutput: true).session
        return (try session.run(), session.options.outputPath)
    }

    /// Random edits of the kinds the segment cache is tested with, one after another: for each,
    /// the diff's video ranges are exactly the segments a cached render of the new version
    /// renders after one of the old, its audio verdict is the join's, and a diff of no change
    /// is a file of the same bytes.
    @Test func theRangesAreWhatACachedRenderRendersAgain() throws {
        var random = SplitMix64(seed: 31)
        var fields = Fields()
        let edits: [(cause: String, edit: (inout Fields, inout SplitMix64) -> Void)] = [
            ("overlays[0].text (via vars.title)", { f, r in f.title = ["One", "Two", "Three"].filter { $0 != f.title }.randomElement(using: &r)! }),
            ("audio[0].clips[0].volume", { f, r in f.volume = ["0.8", "0.5", "1"].filter { $0 != f.volume }.randomElement(using: &r)! }),
            ("video[0].clips[0].from", { f, r in f.from = ["0s", "0.5s", "1s"].filter { $0 != f.from }.randomElement(using: &r)! }),
            ("video[0].clips[1].duration", { f, r in f.transition = ["0.4s", "0.2s", "0.8s"].filter { $0 != f.transition }.randomElement(using: &r)! }),
            ("output.video.crf", { f, _ in f.crf = f.crf == 23 ? 30 : 23 }),
            ("media.a (file changed)", { f, _ in f.otherMedia.toggle() }),
            ("nothing", { _, _ in }),
        ]
        var kinds = Set<String>(), identical = 0
        // Each kind three times, in a random order, each to a value it does not have.
        let order = (edits + edits + edits).shuffled(using: &random)
        for (step, (expected, edit)) in order.enumerated() {
            var next = fields
            edit(&next, &random)
            let old = try Self.version("old", fields), new = try Self.version("new", next)
            let comparison = try WorkspaceTests.workspace().compare(DiffRequest(old: old, new: new))
            let difference = try #require(comparison.renditions.first).difference
            let cache = Self.folder.appendingPathComponent("cache-\(step)").path
            try? FileManager.default.removeItem(atPath: cache)
            let before = try Self.render(old, cache: cache)
            let beforeDigest = try SHA256.hexDigest(ofFileAt: before.output)
            let after = try Self.render(new, cache: cache)
            let videoSegments = Set(difference.changed.filter(\.video).flatMap(\.segments))
            #expect(videoSegments == Set(after.report.rendered), "step \(step) \(expected): \(difference.text)")
            #expect(difference.audioChanged == (after.report.audio == .mixed), "step \(step) \(expected): \(difference.text)")
            if difference.isIdentical {
                identical += 1
                #expect(next == fields, "step \(step): no change reported for an edit")
                #expect(try SHA256.hexDigest(ofFileAt: after.output) == beforeDigest, "step \(step): no change reported, other bytes")
            } else {
                kinds.insert(expected)
                #expect(difference.causes.map(\.text) == [expected], "step \(step)")
                #expect(difference.changed.allSatisfy { !$0.causes.isEmpty })
            }
            fields = next
        }
        // Every edit changed something, but the edits of nothing.
        #expect(kinds.count == edits.count - 1 && identical == 3, "\(kinds), \(identical) unchanged")
    }
}


/// Files a project reads through others (a nested project, a cue file, a LUT, an SVG) and
/// projects as of a git revision.
@Suite(.serialized) struct ProjectDiffFileTests {
    static let folder = MediaFactory.folder("project-diff-files")

    /// A project in `name` reading a nested project, an SVG, a LUT and a cue file, each of
    /// which `edit` may change after they are written.
    static func project(_ name: String, edit: (URL) throws -> Void = { _ in }) throws -> String {
        let dir = folder.appendingPathComponent(name)
        try? FileManager.default.removeItem(at: dir)
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let files = [
            "inner.yaml": """
                reel: 1
                vars: { t: Hello }
                output: { size: [160, 90], fps: 25 }
                video: [{ clips: [{ color: "#203040", duration: 1s }] }]
                overlays: [{ text: "{{ t }}", duration: 1s }]
                """,
            "star.svg": ##"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10" width="40" height="40"><circle cx="5" cy="5" r="4" fill="#ffd700"/></svg>"##,
            "look.cube": "LUT_3D_SIZE 2\n" + (0..<8).map { i in "\(i & 1) \((i >> 1) & 1) \((i >> 2) & 1)" }.joined(separator: "\n") + "\n",
            "talk.vtt": "WEBVTT\n\n00:00:01.200 --> 00:00:01.800\nFirst words\n",
            "project.yaml": """
                reel: 1
                output: { size: [160, 90], fps: 25, segment: 0.4s }
                media: { inner: inner.yaml, star: star.svg, a: \(try ProjectDiffTests.media().b) }
                video:
                  - clips:
                      - { media: inner }
                      - { media: a, duration: 1s, filters: [{ type: lut, file: look.cube }] }
                overlays: [{ svg: star, at: 0.4s, duration: 0.4s }]
                captions: [{ file: talk.vtt, style: { font: DejaVu Sans, size: 12 } }]
                """,
        ]
        for (file, text) in files { try text.write(to: dir.appendingPathComponent(file), atomically: true, encoding: .utf8) }
        try edit(dir)
        return dir.appendingPathComponent("project.yaml").path
    }

    static func replace(_ file: String, _ old: String, _ new: String) -> (URL) throws -> Void {
        { dir in
            let url = dir.appendingPathComponent(file)
            let text = try String(contentsOf: url, encoding: .utf8)
            #expect(text.contains(old), "\(file) has no \(old)")
            try text.replacingOccurrences(of: old, with: new).write(to: url, atomically: true, encoding: .utf8)
        }
    }

    /// Each file's edit is named by the value that names the file, over the time it is used.
    @Test func aFileReadThroughAnotherShowsUpWithItsCause() throws {
        let old = try Self.project("old")
        let cases: [(edit: (URL) throws -> Void, cause: String, range: (Double, Double))] = [
            (Self.replace("inner.yaml", "t: Hello", "t: Goodbye"), "media.inner (nested project: overlays[0].text (via vars.t))", (0, 1)),
            (Self.replace("look.cube", "1 1 1\n", "0.5 0.5 0.5\n"), "video[0].clips[1].filters[0].file (file changed)", (1, 2)),
            (Self.replace("star.svg", "#ffd700", "#00d7ff"), "media.star (file changed)", (0.4, 0.8)),
            (Self.replace("talk.vtt", "First words", "Other words"), "captions[0].file (file changed)", (1.2, 2)),
        ]
        for (edit, cause, range) in cases {
            let new = try Self.project("new", edit: edit)
            let difference = try #require(try WorkspaceTests.workspace().compare(DiffRequest(old: old, new: new)).renditions.first).difference
            #expect(difference.causes.map(\.text) == [cause], "\(difference.text)")
            let changed = difference.changed.filter(\.video)
            #expect(!changed.isEmpty && changed.allSatisfy { $0.causes.map(\.text) == [cause] }, "\(difference.text)")
            // The changed segments (0.4 s each) cover the time the file is used, and no more.
            let covered = changed.map { ($0.range.start.seconds, $0.range.end.seconds) }
            #expect(covered.first!.0 <= range.0 && covered.last!.1 >= range.1 && covered.first!.0 > range.0 - 0.4 && covered.last!.1 < range.1 + 0.4,
                    "\(cause): \(covered)")
        }
    }

    /// `REV:PATH`: the project and the files git tracks as of the revision, the others as
    /// in the working tree; a side that cannot be opened is named.
    @Test func aSideCanBeAGitRevision() throws {
        let project = try Self.project("repo")
        let dir = (project as NSString).deletingLastPathComponent
        func git(_ arguments: String...) throws { _ = try MediaFactory.run("/usr/bin/git", ["-C", dir] + arguments) }
        try git("init", "-q")
        try git("-c", "user.name=Reel", "-c", "user.email=reel@example.com", "add", "project.yaml", "inner.yaml", "look.cube", "talk.vtt")
        try git("-c", "user.name=Reel", "-c", "user.email=reel@example.com", "commit", "-q", "-m", "first")
        // The project, a tracked file and an untracked one (star.svg) change in the working tree.
        try Self.replace("project.yaml", "at: 0.4s", "at: 1.2s")(URL(fileURLWithPath: dir))
        try Self.replace("look.cube", "1 1 1\n", "0.5 0.5 0.5\n")(URL(fileURLWithPath: dir))
        try Self.replace("star.svg", "#ffd700", "#00d7ff")(URL(fileURLWithPath: dir))
        let comparison = try WorkspaceTests.workspace().compare(DiffRequest(old: "HEAD:" + project, new: project))
        let difference = try #require(comparison.renditions.first).difference
        #expect(difference.causes.map(\.text) == ["overlays[0].at", "video[0].clips[1].filters[0].file (file changed)"], "\(difference.text)")
        comparison.close()
        let same = try WorkspaceTests.workspace().compare(DiffRequest(old: "HEAD:" + project, new: "HEAD:" + project))
        #expect(same.isIdentical)
        same.close()
        // Nothing of the revisions' copies is left behind.
        #expect(!FileManager.default.fileExists(atPath: same.renditions[0].old.loaded.document.source.name))

        #expect {
            try WorkspaceTests.workspace().compare(DiffRequest(old: "no-such-revision:" + project, new: project))
        } throws: { error in
            guard let side = error as? DiffSideError else { return false }
            return side.side == "old" && side.description.contains("no-such-revision") && FailureKind(of: side) == .missingFile
        }
        try "reel: 1\noutput: { size: [160, 90], fps: many }\n".write(toFile: dir + "/broken.yaml", atomically: true, encoding: .utf8)
        #expect {
            try WorkspaceTests.workspace().compare(DiffRequest(old: project, new: dir + "/broken.yaml"))
        } throws: { error in
            guard let side = error as? DiffSideError else { return false }
            return side.side == "new" && side.description.contains("broken.yaml:2:") && FailureKind(of: side) == .invalidInput
        }
    }
}
