import CompositionGraph
import Foundation
import ProjectFile
import TestSupport
import Testing

/// Every example renders, and its decoded output (video frames and audio, ffmpeg's framemd5)
/// matches the golden file in Golden/, so any change to rendering shows as a diff. The
/// examples render with `--preset preview` (small, fast); re-record with `REEL_RECORD=1`.
@Suite(.serialized) struct ExampleRenderTests {
    static let examples = exampleProjects()

    func framemd5(_ path: String) throws -> String {
        let hashes = try MediaFactory.run("ffmpeg", ["-hide_banner", "-nostdin", "-v", "error", "-i", path, "-map", "0", "-f", "framemd5", "-"])
        // The muxer names its own version; the hashes are what must not change.
        return hashes.split(separator: "\n", omittingEmptySubsequences: false).filter { !$0.hasPrefix("#software") }.joined(separator: "\n")
    }

    @Test(arguments: examples)
    func rendersAsRecorded(example: URL) throws {
        try #require(promoMediaProblem == nil, "\(promoMediaProblem ?? "")")
        let name = example.deletingPathExtension().pathComponents.suffix(2).joined(separator: "-")
        let ext = try outputExtension(example)
        let output = MediaFactory.path("example-\(name).\(ext)")
        let (project, server) = try servingRemoteMedia(example)
        let run = try ReelCommand.run(["render", project.path, "--preset", "preview", "-o", output, "--progress", "none"],
                                      // A cache of rendered segments of this run's own: one shared with earlier
                                      // builds could hand back segments of code since changed.
                                      environment: ["REEL_MEDIA_CACHE_DIR": MediaFactory.path("example-media-cache"),
                                                    "REEL_CACHE_DIR": MediaFactory.path("example-parts")])
        withExtendedLifetime(server) {}
        #expect(run.status == 0, "\(run.standardError)")
        guard run.status == 0 else { return }
        // A project with renditions makes each of them, named after it.
        let renditions = Renditions.names(in: try DocumentLoader.load(path: example.path).root)
        for suffix in renditions.isEmpty ? [""] : renditions.map({ "-\($0)" }) {
            let golden = repositoryRoot.appendingPathComponent("Tests/ReelCLITests/Golden/\(name)\(suffix).framemd5")
            let mismatch = snapshotMismatch(try framemd5(MediaFactory.path("example-\(name)\(suffix).\(ext)")), path: golden)
            #expect(mismatch == nil, "\(mismatch ?? "")")
        }
    }

    /// `mp4`, but for an example whose background is transparent: MP4 cannot carry alpha, so it
    /// renders to its own file's extension (`.mov`: ProRes 4444, which the preset keeps).
    func outputExtension(_ example: URL) throws -> String {
        let output = try DocumentLoader.load(path: example.path).root["output"]
        guard let background = output?["background"]?.stringValue, let color = Color(parsing: background), !color.isOpaque,
              let path = output?["path"]?.stringValue else { return "mp4" }
        return URL(fileURLWithPath: path).pathExtension
    }

    /// Examples/remote-media fetches the promo's media from http://127.0.0.1:8000 (served as its
    /// comment says): the test serves them on a free port and renders a copy that names it.
    func servingRemoteMedia(_ example: URL) throws -> (URL, MediaServer?) {
        let text = try String(contentsOf: example, encoding: .utf8)
        guard text.contains("http://127.0.0.1:8000/") else { return (example, nil) }
        let server = try MediaServer(serving: repositoryRoot.appendingPathComponent("Examples/promo/media").path)
        let copy = URL(fileURLWithPath: MediaFactory.path("remote-example-\(example.lastPathComponent)"))
        try text.replacingOccurrences(of: "http://127.0.0.1:8000", with: server.base).write(to: copy, atomically: true, encoding: .utf8)
        return (copy, server)
    }

    @Test func thePromoRendersTwentySecondsOf1080pH264AndAAC() throws {
        try #require(promoMediaProblem == nil, "\(promoMediaProblem ?? "")")
        let output = MediaFactory.path("promo-full.mp4")
        let run = try ReelCommand.run(["render", "Examples/promo/project.yaml", "-o", output, "--progress", "none"])
        #expect(run.status == 0, "\(run.standardError)")
        let probe = try MediaFactory.ffprobe(output, ["-show_entries", "format=duration:stream=codec_name,width,height,nb_frames,sample_rate,channels"])
        let streams = probe["streams"] as? [[String: Any]] ?? []
        #expect(streams.count == 2)
        #expect(streams.first?["codec_name"] as? String == "h264")
        #expect(streams.first?["width"] as? Int == 1920 && streams.first?["height"] as? Int == 1080)
        #expect(streams.first?["nb_frames"] as? String == "600")
        #expect(streams.last?["codec_name"] as? String == "aac")
        #expect(streams.last?["sample_rate"] as? String == "48000")
        #expect((probe["format"] as? [String: Any])?["duration"] as? String == "20.000000")
    }
}
