import Foundation
import TestSupport
import Testing

/// Ctrl-C once remote media have been fetched, or while they are, sent as a terminal sends it
/// to a `reel` started from a shell (`BackgroundReel`: no signal blocked). The fetch's handling
/// of the signal used to replace libdispatch's own handler, after which the signal was
/// dropped: a preview with a fetch under way ran on, and a render rendered to the end.
extension RemoteMediaTests {
    /// A preview whose clip comes a byte a second stops within two seconds of Ctrl-C, with
    /// its usual status, and leaves no partial download in the media cache.
    @Test func ctrlCStopsAPreviewWhileItsFetchTrickles() throws {
        let name = "preview-ctrl-c"
        let (server, preview) = try slowPreview(name)
        withExtendedLifetime(server) {}
        #expect(preview.waitUntil(seconds: 10) { cachedFiles(name).contains { $0.hasPrefix(".download-") } }, "\(preview.standardError)")
        kill(preview.process.processIdentifier, SIGINT)
        #expect(preview.exitStatus(within: 2) == 0, "\(preview.standardError)")
        #expect(cachedFiles(name).isEmpty)
    }

    /// A render of a project whose clip was fetched stops on Ctrl-C while it renders: 130,
    /// its temporary file removed, no output.
    @Test func ctrlCStopsARenderAfterItsMediaAreFetched() throws {
        _ = try Self.clip.get()
        let server = try MediaServer(serving: path("served"))
        // 60 s of the 2 s clip, one segment at a time: seconds of rendering after the fetch.
        let clips = Array(repeating: "      - media: clip", count: 30).joined(separator: "\n")
        let project = path("fetched-then-render.yaml")
        try """
            reel: 1
            output: { size: [320, 180], fps: 25, video: { preset: ultrafast } }
            media:
              clip: \(server.base)/clip.mp4
            video:
              - clips:
            \(clips)
            """.write(toFile: project, atomically: true, encoding: .utf8)
        let output = path("fetched-then-render.mp4"), partial = path(".fetched-then-render.mp4.partial")
        let render = try BackgroundReel(["render", project, "-o", output, "--jobs", "1", "--progress", "none"],
                                        environment: environment("fetched-then-render"))
        #expect(render.waitUntil(seconds: 30) { FileManager.default.fileExists(atPath: partial) }, "\(render.standardError)")
        #expect(render.standardError.contains("fetched \(server.base)/clip.mp4"), "\(render.standardError)")
        kill(render.process.processIdentifier, SIGINT)
        #expect(render.exitStatus(within: 3) == 130, "\(render.standardError)")
        #expect(!FileManager.default.fileExists(atPath: partial))
        #expect(!FileManager.default.fileExists(atPath: output))
    }
}
