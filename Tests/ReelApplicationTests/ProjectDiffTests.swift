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

