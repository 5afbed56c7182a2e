import Foundation
import Interchange
import MediaTime
import Testing
import TestSupport

/// Source timecode → media time through the file's own start timecode, `--media-start`, or 0.
@Suite struct MediaMappingTests {
    func importEDL(_ edl: String, rate: Rational, files: [String: String?], fileRate: Rational = Rational(24),
                   options: (String) -> MediaOptions) throws -> String {
        let folder = scratchFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        for name in files.keys { FileManager.default.createFile(atPath: folder + "/" + name, contents: Data()) }
        try edl.write(toFile: folder + "/cut.edl", atomically: true, encoding: .utf8)
        return try ProjectImport.run(path: folder + "/cut.edl", rate: rate, options: options(folder), facts: FakeMediaFacts.withTimecodes(files, rate: fileRate),
                                     projectPath: folder + "/project.yaml").text
    }

    @Test func theFilesTimecodeIsSubtracted() throws {
        let edl = "001  TAPE1  V  C  01:00:04:05 01:00:05:12 00:00:00:00 00:00:01:07\n* FROM CLIP NAME: clip_A\n"
        let text = try importEDL(edl, rate: Rational(24), files: ["clip_A.mov": "01:00:00:00"]) { MediaOptions(directory: $0) }
        #expect(text.contains("  clip_A: clip_A.mov  # starts at the file's timecode 01:00:00:00\n"))
        #expect(text.contains("from: \"00:00:04:05\"\n") && text.contains("to: \"00:00:05:12\"\n"))
    }

    @Test func clipsOfOneReelShareOneEntry() throws {
        let edl = "001  TAPE1  V  C  01:00:02:00 01:00:04:00 01:00:00:00 01:00:02:00\n* FROM CLIP NAME: first\n"
            + "002  TAPE1  V  C  01:00:10:12 01:00:12:12 01:00:02:00 01:00:04:00\n* FROM CLIP NAME: second\n"
        let text = try importEDL(edl, rate: Rational(25), files: ["TAPE1.mov": "01:00:00:00"]) { MediaOptions(directory: $0) }
        #expect(text.components(separatedBy: "TAPE1.mov").count == 2)
        #expect(text.components(separatedBy: "media: TAPE1\n").count == 3)
        #expect(text.contains("from: \"00:00:10:12\"\n"))
    }

    @Test func mediaStartOptionForAFileWithoutTimecode() throws {
        let edl = "001  TAPE1  V  C  10:00:01:00 10:00:02:00 00:00:00:00 00:00:01:00\n"
        let text = try importEDL(edl, rate: Rational(25), files: ["TAPE1.mxf": nil]) {
            MediaOptions(directory: $0, starts: [(name: "TAPE1", timecode: "10:00:00:00")])
        }
        #expect(text.contains("from: \"00:00:01:00\"\n") && text.contains("to: \"00:00:02:00\"\n"))
        let without = try importEDL(edl, rate: Rational(25), files: ["TAPE1.mxf": nil]) { MediaOptions(directory: $0) }
        #expect(without.contains("from: \"10:00:01:00\"\n"))
    }

    @Test func dropFrameSourceAgainstDropFrameFile() throws {
        // 29.97 drop-frame: 01:00:00;02 is two frames after the file's 01:00:00;00 and 01:01:00;04 is
        // 1802 frames after it (00:01:00:02 counted without drops, as the project counts).
        let edl = "FCM: DROP FRAME\n001  CAM_A  V  C  01:00:00;02 01:01:00;04 00:00:00;00 00:01:00;02\n"
        let text = try importEDL(edl, rate: Rational(30000, 1001), files: ["CAM_A.mov": "01:00:00;00"], fileRate: Rational(30000, 1001)) {
            MediaOptions(directory: $0)
        }
        #expect(text.contains("fps: 29.97"))
        #expect(text.contains("from: \"00:00:00:02\"\n") && text.contains("to: \"00:01:00:02\"\n"))
    }

    @Test func explicitMediaPairsWinAndUnknownFilesAreNamed() throws {
        let edl = "001  TAPE1  V  C  00:00:01:00 00:00:02:00 00:00:00:00 00:00:01:00\n002  TAPE2  V  C  00:00:01:00 00:00:02:00 00:00:01:00 00:00:02:00\n"
        let folder = scratchFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        FileManager.default.createFile(atPath: folder + "/real.mov", contents: Data())
        try edl.write(toFile: folder + "/cut.edl", atomically: true, encoding: .utf8)
        let result = try ProjectImport.run(path: folder + "/cut.edl", rate: Rational(24),
                                           options: MediaOptions(explicit: [(name: "TAPE1", path: folder + "/real.mov")]),
                                           facts: FakeMediaFacts.withTimecodes(["real.mov": nil]), projectPath: folder + "/p.yaml")
        #expect(result.text.contains("  TAPE1: real.mov\n"))
        let unmatched = result.warnings.filter { $0.message.hasPrefix("no file found") }
        #expect(unmatched.map(\.place.line) == [2])
        #expect(unmatched.first?.message.contains("'TAPE2'") == true)
    }
}
