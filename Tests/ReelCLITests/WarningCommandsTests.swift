import Foundation
import TestSupport
import Testing

/// The commands without `--strict` (graph, frame, thumbnails, export) on a project with a
/// warning: the warning is printed as `reel render` prints it, and the command does its work
/// (they ended in ArgumentParser's "Can't read a value from a parsable argument definition",
/// exit 1, nothing written).
@Suite struct WarningCommandsTests {
    static let warning = "sound-after.yaml:9:9: warning: the sound goes on 4s after the last picture"

    func expectDone(_ arguments: [String], sourceLocation: SourceLocation = #_sourceLocation) throws -> ReelRun {
        let run = try ReelCommand.run(arguments)
        #expect(run.status == 0, "\(arguments): \(run.standardError)", sourceLocation: sourceLocation)
        #expect(run.standardError.contains(Self.warning), "\(arguments): \(run.standardError)", sourceLocation: sourceLocation)
        #expect(!run.standardError.contains("parsable argument"), "\(run.standardError)", sourceLocation: sourceLocation)
        return run
    }

    /// A fresh path in the warnings folder for an output (any earlier one removed).
    func output(_ name: String) -> String {
        let path = WarningTests.folder.appendingPathComponent(name).path
        try? FileManager.default.removeItem(atPath: path)
        return path
    }

    /// Width and height of a PNG, read by ffprobe.
    func size(ofPicture path: String) throws -> [Int] {
        let stream = (try MediaFactory.ffprobe(path, ["-show_entries", "stream=width,height"])["streams"] as? [[String: Any]])?.first
        return [stream?["width"] as? Int ?? 0, stream?["height"] as? Int ?? 0]
    }

    @Test func graphPrintsTheWarningAndTheGraph() throws {
        let project = try WarningTests.soundAfterThePictures()
        let listing = try expectDone(["graph", project])
        #expect(listing.standardOutput.contains("00:00:08.000"), "\(listing.standardOutput)")
        let json = try expectDone(["graph", project, "--json"])
        #expect((try? JSONSerialization.jsonObject(with: Data(json.standardOutput.utf8))) is [String: Any])
        let page = output("sound-after.html")
        _ = try expectDone(["graph", project, "--html", page])
        #expect(try String(contentsOfFile: page, encoding: .utf8).contains("<html"))
    }

    @Test func framePrintsTheWarningAndWritesThePicture() throws {
        let png = output("sound-after-frame.png")
        let run = try expectDone(["frame", try WarningTests.soundAfterThePictures(), "--at", "1s", "-o", png])
        #expect(run.standardOutput.contains("frame 30"), "\(run.standardOutput)")
        #expect(try size(ofPicture: png) == [320, 180])
    }

    @Test func thumbnailsPrintTheWarningAndWriteTheFrames() throws {
        let project = try WarningTests.soundAfterThePictures()
        let sheet = output("sound-after-sheet.png")
        _ = try expectDone(["thumbnails", project, "--count", "2", "--sheet", sheet])
        #expect(FileManager.default.fileExists(atPath: sheet))
        let folder = output("sound-after-thumbnails")
        _ = try expectDone(["thumbnails", project, "--every", "2s", "-o", folder])
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasSuffix(".png") }.count == 4)
    }

    /// Export reads the project the same way and has warnings of its own to print; the
    /// project's must not stop it either.
    @Test func exportWritesTheTimeline() throws {
        let otio = output("sound-after.otio")
        let run = try ReelCommand.run(["export", try WarningTests.soundAfterThePictures(), "-o", otio])
        #expect(run.status == 0, "\(run.standardError)")
        #expect(FileManager.default.fileExists(atPath: otio))
    }
}
