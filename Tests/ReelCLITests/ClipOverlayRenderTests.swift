import Foundation
import TestSupport
import Testing

/// A clip's own overlay rendered: visible from the first frame of the transition into its
/// clip to the last frame of the transition out of it, and on no frame before or after.
@Suite struct ClipOverlayRenderTests {
    @Test func aClipsOverlayShowsExactlyWhileItsClipShows() throws {
        let folder = MediaFactory.folder("clip-overlay-\(UUID().uuidString)")
        // At 10 fps: the middle clip shows from 0.5 s (the crossfade into it) to 2 s (the end of
        // the crossfade out of it), frames 5 to 19 of 25. Every colour's red is below 128.
        let yaml = """
        reel: 1
        output: { path: out.mp4, size: [160, 90], fps: 10, video: { codec: h264, crf: 4, preset: ultrafast } }
        video:
          - clips:
              - { color: "#202060", duration: 1s }
              - { transition: crossfade, duration: 0.5s }
              - color: "#206020"
                duration: 1.5s
                overlays: [{ rect: true, fill: "#ffffff", size: [40, 20] }]
              - { transition: crossfade, duration: 0.5s }
              - { color: "#602020", duration: 1s }
        """
        let project = folder.appendingPathComponent("project.yaml").path
        try yaml.write(toFile: project, atomically: true, encoding: .utf8)
        let run = try ReelCommand.run(["render", project, "--progress", "none"])
        #expect(run.status == 0, "\(run.standardError)")
        let frames = try Self.frames(of: folder.appendingPathComponent("out.mp4").path, width: 160, height: 90)
        #expect(frames.count == 25)
        // The pixels with red above 128 in each frame: the white box's 40 × 20, or none.
        let bright = frames.map { frame in stride(from: 0, to: frame.count, by: 3).filter { frame[$0] > 128 }.count }
        #expect(bright.indices.filter { bright[$0] > 0 } == Array(5...19), "\(bright)")
        #expect(bright[5...19].allSatisfy { abs($0 - 800) <= 80 }, "\(bright)")
    }

    /// Every frame of `path` as R′G′B′ bytes.
    static func frames(of path: String, width: Int, height: Int) throws -> [[UInt8]] {
        let raw = MediaFactory.path("decoded-\(UUID().uuidString).rgb")
        defer { try? FileManager.default.removeItem(atPath: raw) }
        try MediaFactory.ffmpeg(["-i", path, "-f", "rawvideo", "-pix_fmt", "rgb24", raw])
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: raw)))
        let size = width * height * 3
        return stride(from: 0, to: bytes.count, by: size).map { Array(bytes[$0..<min($0 + size, bytes.count)]) }
    }
}
