import Foundation
import TestSupport
import Testing

/// A FIFO (named pipe) given where Reel reads a file is refused at once with what it is; read,
/// it would wait for a writer that never comes. Each run is under `timeout`, so a hang fails
/// the test (status 124) instead of stopping the suite.
@Suite struct FifoInputTests {
    static let folder = MediaFactory.folder("fifo-inputs")

    static let fifo: String = {
        let path = folder.appendingPathComponent("pipe").path
        if !FileManager.default.fileExists(atPath: path) { _ = mkfifo(path, 0o644) }
        return path
    }()

    /// A FIFO under another name (the extension a command expects), as a symlink.
    static func fifo(named name: String) throws -> String {
        let path = folder.appendingPathComponent(name).path
        try? FileManager.default.removeItem(atPath: path)
        try FileManager.default.createSymbolicLink(atPath: path, withDestinationPath: fifo)
        return path
    }

    static func project(_ name: String, _ extra: String) throws -> String {
        let video = try MediaFactory.file("fifo-v.mp4", ["-f", "lavfi", "-i", "testsrc2=size=160x90:rate=10:duration=1", "-an"])
        let path = folder.appendingPathComponent(name).path
        try "reel: 1\noutput: { size: [160, 90], fps: 10 }\nmedia: { v: \(video) }\nvideo: [{ clips: [{ media: v }] }]\n\(extra)"
            .write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    func run(_ arguments: [String]) throws -> ReelRun {
        try ReelCommand.run(arguments, in: Self.folder, emulator: ["/usr/bin/timeout", "20"])
    }

    @Test func aFifoAsTheProjectOrTheVarsFile() throws {
        let asProject = try run(["validate", try Self.fifo(named: "pipe.yaml")])
        #expect(asProject.status == 66, "\(asProject.standardError)")
        #expect(asProject.standardError.contains("is a FIFO (named pipe), not a file"), "\(asProject.standardError)")
        let asVars = try run(["validate", try Self.project("plain.yaml", ""), "--vars", try Self.fifo(named: "vars.json")])
        #expect(asVars.status == 66, "\(asVars.standardError)")
        #expect(asVars.standardError.contains("is a FIFO (named pipe), not a file"), "\(asVars.standardError)")
    }

    @Test func aFifoAsAFontACueFileOrALUT() throws {
        let font = try run(["validate", try Self.project("font.yaml", "fonts: [\(try Self.fifo(named: "font.ttf"))]\n")])
        #expect(font.status == 65, "\(font.standardError)")
        #expect(font.standardError.contains("font.ttf': it is a FIFO (named pipe), not a file"), "\(font.standardError)")
        let folder = try run(["validate", try Self.project("font-folder.yaml", "fonts: [\(Self.folder.path)]\n")])
        #expect(folder.standardError.contains("it is a folder, not a file"), "\(folder.standardError)")
        let cues = try run(["validate", try Self.project("cues.yaml", "captions: [{ file: \(try Self.fifo(named: "cues.srt")) }]\n")])
        #expect(cues.status == 65, "\(cues.standardError)")
        #expect(cues.standardError.contains("is a FIFO (named pipe), not a cue file"), "\(cues.standardError)")
        let lutProject = try Self.project("lut-filter.yaml", "")
        try String(contentsOfFile: lutProject, encoding: .utf8)
            .replacingOccurrences(of: "{ media: v }", with: "{ media: v, filters: [{ type: lut, file: \(try Self.fifo(named: "look.cube")) }] }")
            .write(toFile: lutProject, atomically: true, encoding: .utf8)
        let lutRun = try run(["validate", lutProject])
        #expect(lutRun.status == 65, "\(lutRun.standardError)")
        #expect(lutRun.standardError.contains("a FIFO (named pipe)"), "\(lutRun.standardError)")
    }

    @Test func aFifoToImportOrAsBatchRows() throws {
        for name in ["cut.edl", "cut.otio"] {
            let imported = try run(["import", try Self.fifo(named: name), "-o", Self.folder.appendingPathComponent("imported.yaml").path])
            #expect(imported.status == 66, "\(name): \(imported.standardError)")
            #expect(imported.standardError.contains("it is a FIFO (named pipe), not a file"), "\(name): \(imported.standardError)")
        }
        let rows = try run(["batch", try Self.project("rows.yaml", ""), "--data", try Self.fifo(named: "rows.csv"), "--output", "out-{{ row }}.mp4", "--plan"])
        #expect(rows.status == 66, "\(rows.standardError)")
        #expect(rows.standardError.contains("it is a FIFO (named pipe), not a file"), "\(rows.standardError)")
    }
}
