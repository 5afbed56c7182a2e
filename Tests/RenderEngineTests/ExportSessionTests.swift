import CompositionGraph
import Foundation
import MediaTime
import TestSupport
import Testing
@testable import RenderEngine

@Suite struct ExportSessionTests {
    let size = PixelSize(width: 320, height: 180)

    func graph() throws -> CompositionGraph {
        let bars = try MediaReference.probed("bars", MediaBridgeTests.bars())
        return EndToEnd.sequence([EndToEnd.Clip(media: bars, source: TimeRange(start: .zero, duration: seconds(2)),
                                                target: TimeRange(start: .zero, duration: seconds(2)))], size: size, lossless: false)
    }

    func folder(_ name: String) throws -> URL {
        let url = URL(fileURLWithPath: MediaFactory.path(name))
        try? FileManager.default.removeItem(at: url)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    @Test func aCancelLeavesTheExistingOutputAndNoTemporaryFile() throws {
        let dir = try folder("cancel")
        let out = dir.appendingPathComponent("out.mp4")
        try Data("previous render".utf8).write(to: out)
        // A long timeline (the 2 s clip looped by segments), so the signal lands mid-render.
        var g = try graph()
        let bars = try MediaReference.probed("bars", MediaBridgeTests.bars())
        g.composition.tracks[0].segments = (0..<60).map {
            Segment(target: TimeRange(start: seconds(Int64(2 * $0)), duration: seconds(2)), content: .media(bars, sourceRange: TimeRange(start: .zero, duration: seconds(2))))
        }
        g.composition.duration = seconds(120)
        g.videoComposition.instructions = [VideoInstruction(timeRange: TimeRange(start: .zero, duration: seconds(120)), background: .black,
                                                            layers: [layer(1, size: size)])]
        let session = try ExportSession(graph: g, options: ExportOptions(outputPath: out.path))
        // The cancel comes once the render is under way (its temporary file exists), however
        // slow or fast the machine is.
        let signalled = LockedTime()
        let folderPath = dir.path
        Thread.detachNewThread {
            let deadline = ProcessInfo.processInfo.systemUptime + 30
            while ProcessInfo.processInfo.systemUptime < deadline {
                let names = (try? FileManager.default.subpathsOfDirectory(atPath: folderPath)) ?? []
                if names.contains(where: { $0.hasSuffix(".partial") }) { break }
                Thread.sleep(forTimeInterval: 0.01)
            }
            signalled.set(ProcessInfo.processInfo.systemUptime)
            session.cancel()
        }
        #expect(throws: RenderError.cancelled) { try session.run() }
        let stopped = ProcessInfo.processInfo.systemUptime
        #expect(stopped - (signalled.value ?? stopped) < 5, "the render stopped \(stopped - (signalled.value ?? stopped)) s after the cancel")
        #expect(try String(contentsOf: out, encoding: .utf8) == "previous render")
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path) == ["out.mp4"])
    }

    @Test func aRangeRendersThatPartOnly() throws {
        let dir = try folder("range")
        let out = dir.appendingPathComponent("part.mp4").path
        let range = TimeRange(start: seconds(1, 2), end: seconds(3, 2))
        try ExportSession(graph: try graph(), options: ExportOptions(outputPath: out, range: range)).run()
        let probe = try MediaFactory.ffprobe(out, ["-count_frames", "-show_entries", "stream=nb_read_frames,codec_type"])
        let streams = probe["streams"] as? [[String: Any]] ?? []
        #expect(streams.first { $0["codec_type"] as? String == "video" }?["nb_read_frames"] as? String == "30")
    }

    @Test func aMissingMediaFileIsFoundBeforeAnyFrame() throws {
        var g = try graph()
        let ghost = MediaReference.fake("ghost", path: "/nonexistent/ghost.mp4", kind: .video)
        g.composition.tracks[0].segments[0].content = .media(ghost, sourceRange: TimeRange(start: .zero, duration: seconds(2)))
        let out = try folder("missing").appendingPathComponent("out.mp4").path
        let error = #expect(throws: RenderError.self) { try ExportSession(graph: g, options: ExportOptions(outputPath: out)).run() }
        #expect(error == .missingFile("/nonexistent/ghost.mp4", name: "ghost"))
        #expect(error?.description.contains("/nonexistent/ghost.mp4") == true)
        #expect(!FileManager.default.fileExists(atPath: out))
    }

    @Test func presetsSpellOutTheirSettingsAndScaleTheFrame() {
        var g = crossfadeGraph(size: PixelSize(width: 1920, height: 1080))
        g.videoComposition.instructions[0].layers[0].transform.positionX = .constant(480)
        let small = ExportPreset.preview.apply(to: g)
        #expect(small.videoComposition.renderSize == PixelSize(width: 640, height: 360))
        #expect(small.videoComposition.frameDuration == seconds(1, 15))
        #expect(small.output.video?.crf == 30 && small.output.video?.preset == "ultrafast")
        #expect(small.videoComposition.instructions[0].layers[0].transform.positionX.value(at: .zero) == 160)
        let same = ExportPreset.highest.apply(to: g)
        #expect(same.videoComposition.renderSize == g.videoComposition.renderSize && same.output.video?.crf == 16)
    }

    /// Size presets name the short side: a vertical video keeps its full width at 1080p.
    @Test(arguments: [
        (PixelSize(width: 1080, height: 1920), ExportPreset.p1080, PixelSize(width: 1080, height: 1920)),
        (PixelSize(width: 1080, height: 1920), .p720, PixelSize(width: 720, height: 1280)),
        (PixelSize(width: 1080, height: 1920), .preview, PixelSize(width: 360, height: 640)),
        (PixelSize(width: 1080, height: 1920), .low, PixelSize(width: 540, height: 960)),
        (PixelSize(width: 1080, height: 1080), .p720, PixelSize(width: 720, height: 720)),
        (PixelSize(width: 3840, height: 2160), .p1080, PixelSize(width: 1920, height: 1080)),
        (PixelSize(width: 1280, height: 720), .p480, PixelSize(width: 854, height: 480)),
    ])
    func sizePresetsNameTheShortSide(project: PixelSize, preset: ExportPreset, expected: PixelSize) {
        #expect(preset.apply(to: crossfadeGraph(size: project)).videoComposition.renderSize == expected, "\(preset) of \(project)")
    }
}

/// A time one thread sets and another reads.
final class LockedTime: @unchecked Sendable {
    private let lock = NSLock()
    private var time: Double?
    func set(_ t: Double) { lock.withLock { time = t } }
    var value: Double? { lock.withLock { time } }
}
