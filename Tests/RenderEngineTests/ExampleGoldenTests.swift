import Foundation
import TestSupport
import Testing

/// Per-frame MD5s of every example rendered by the `reel` executable at the `preview`
/// preset (640x360, 15 fps: quick, and it still goes through every path the example uses),
/// kept under Golden/examples/. Re-record with `REEL_RECORD_GOLDEN=1`.
@Suite struct ExampleGoldenTests {
    static let examples = ["promo/project.yaml", "promo-json/project.json", "transitions/project.yaml", "showcase/project.yaml",
                           "formats/av1-mp3.yaml", "formats/mkv-h265-flac.yaml", "formats/mov-prores-pcm.yaml", "formats/webm-vp9-opus.yaml"]

    /// The `reel` executable built next to this test bundle.
    static var reel: String {
        URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("reel").path
    }

    @Test(arguments: examples) func exampleRendersAsRecorded(_ example: String) throws {
        try MediaFactory.run(repositoryRoot.appendingPathComponent("scripts/make-promo-media.sh").path, [])
        let name = example.replacingOccurrences(of: "/", with: "-").replacingOccurrences(of: ".yaml", with: "").replacingOccurrences(of: ".json", with: "")
        let out = MediaFactory.path("example-\(name).mp4")
        try MediaFactory.run(Self.reel, ["render", repositoryRoot.appendingPathComponent("Examples/\(example)").path, "-o", out,
                                         "--preset", "preview", "--progress", "none"])
        let hashes = try MediaFactory.run("ffmpeg", ["-hide_banner", "-v", "error", "-i", out, "-f", "framemd5", "-"])
        let file = GoldenFrameTests.goldenFolder.appendingPathComponent("examples/\(name).framemd5")
        if GoldenFrameTests.recording {
            try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
            try hashes.write(to: file, atomically: true, encoding: .utf8)
        }
        let got = hashes.split(separator: "\n"), want = try String(contentsOf: file, encoding: .utf8).split(separator: "\n")
        #expect(got.count == want.count, "\(got.count) lines of hashes, \(want.count) recorded")
        if let i = (0..<min(got.count, want.count)).first(where: { got[$0] != want[$0] }) {
            Issue.record("\(example): first difference at line \(i + 1):\n  got  \(got[i])\n  want \(want[i])\n(re-record with REEL_RECORD_GOLDEN=1 if the change is intended)")
        }
    }
}
