import CompositionGraph
import Foundation
import MediaTime
import TestSupport
import Testing
@testable import RenderEngine

/// Per-frame MD5s (ffmpeg's framemd5 of the decoded output) of short projects, kept under
/// Golden/ so that any change to what Reel renders shows up as a diff. The output is lossless
/// (x264 qp 0, FLAC), so the hashes are those of the composited frames and mixed samples, not
/// of an encoder version. Re-record with `REEL_RECORD_GOLDEN=1 swift test --filter GoldenFrame`.
@Suite struct GoldenFrameTests {
    static let goldenFolder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Golden")
    static let recording = ProcessInfo.processInfo.environment["REEL_RECORD_GOLDEN"] == "1"

    /// Cuts, a 2× clip and a crossfade; a clip turned by 12° and scaled (the general path);
    /// a rectangle overlay fading in; audio faded across the crossfade.
    static func project() throws -> CompositionGraph {
        let size = PixelSize(width: 320, height: 180)
        let flash = try MediaReference.probed("flash", AVSyncTests.flashes())
        let bars = try MediaReference.probed("bars", MediaBridgeTests.bars())
        var graph = EndToEnd.sequence([
            EndToEnd.Clip(media: flash, source: TimeRange(start: seconds(1, 2), duration: seconds(1)), target: TimeRange(start: .zero, duration: seconds(1))),
            EndToEnd.Clip(media: bars, source: TimeRange(start: .zero, duration: seconds(2)), target: TimeRange(start: seconds(1, 2), duration: seconds(1))),
            EndToEnd.Clip(media: flash, source: TimeRange(start: .zero, duration: seconds(2)), target: TimeRange(start: seconds(3, 2), duration: seconds(1))),
        ], size: size)
        let last = graph.videoComposition.instructions.count - 1
        graph.videoComposition.instructions[last].layers[0].transform.rotation = .constant(12)
        graph.videoComposition.instructions[last].layers[0].transform.scaleX = .constant(0.75)
        graph.videoComposition.instructions[last].layers[0].transform.scaleY = .constant(0.75)
        graph.overlays = [OverlayLayer(content: .rect(ShapeStyle(fill: .color(Color(red: 1, green: 0.8, blue: 0, alpha: 0.8)), cornerRadius: 6)),
                                       timeRange: TimeRange(start: seconds(1, 4), duration: seconds(2)),
                                       positionX: .constant(250), positionY: .constant(150), width: 100, height: 40,
                                       opacity: .ramp(from: 0, to: 1, over: TimeRange(start: seconds(1, 4), duration: seconds(1, 2))))]
        return graph
    }

    @Test func theShortProjectRendersAsRecorded() throws {
        let out = try EndToEnd.render(Self.project(), to: "golden-short.mkv")
        let hashes = try MediaFactory.run("ffmpeg", ["-hide_banner", "-v", "error", "-i", out, "-f", "framemd5", "-"])
        let file = Self.goldenFolder.appendingPathComponent("short-project.framemd5")
        if Self.recording {
            try FileManager.default.createDirectory(at: Self.goldenFolder, withIntermediateDirectories: true)
            try hashes.write(to: file, atomically: true, encoding: .utf8)
        }
        let golden = try String(contentsOf: file, encoding: .utf8)
        let got = hashes.split(separator: "\n"), want = golden.split(separator: "\n")
        #expect(got.count == want.count, "\(got.count) lines of hashes, \(want.count) recorded")
        if let i = (0..<min(got.count, want.count)).first(where: { got[$0] != want[$0] }) {
            Issue.record("first difference at line \(i + 1):\n  got  \(got[i])\n  want \(want[i])\n(re-record with REEL_RECORD_GOLDEN=1 if the change is intended)")
        }
    }
}
