import AtomicFiles
import Foundation
import Testing

/// `TemporaryFile`: a file named only once it is written (the media cache's downloads).
@Suite struct TemporaryFileTests {
    @Test func itIsRenamedToTheNameGivenAtTheEndOrRemoved() throws {
        let dir = try newFolder()
        let file = try TemporaryFile(in: dir.path, prefix: ".download-")
        #expect(file.path.hasPrefix(dir.path + "/.download-"))
        try file.write(Array("body".utf8))
        try file.commit(to: dir.appendingPathComponent("named").path, sync: false)
        #expect(try names(dir) == ["named"])
        #expect(try String(contentsOfFile: dir.appendingPathComponent("named").path, encoding: .utf8) == "body")
        let closed = #expect(throws: FileWriteError.self) { try file.commit(to: dir.appendingPathComponent("again").path, sync: false) }
        #expect(closed?.kind == .closed)
        do { _ = try TemporaryFile(in: dir.path, prefix: ".download-") }
        #expect(try names(dir) == ["named"])
    }

    @Test func aSweepRemovesOnlyOldFilesNobodyHolds() throws {
        let dir = try newFolder()
        for name in [".download-abandoned", ".download-fresh", "kept"] {
            try Data([1]).write(to: dir.appendingPathComponent(name))
            if name != ".download-fresh" {
                try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSinceNow: -3600)],
                                                      ofItemAtPath: dir.appendingPathComponent(name).path)
            }
        }
        let live = try TemporaryFile(in: dir.path, prefix: ".download-")
        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSinceNow: -3600)], ofItemAtPath: live.path)
        TemporaryFile.removeAbandoned(in: dir.path, prefix: ".download-", olderThan: 60)
        #expect(try Set(names(dir)) == [".download-fresh", "kept", URL(fileURLWithPath: live.path).lastPathComponent])
    }

    @Test func aFolderThatIsNotThereIsSaid() throws {
        let missing = try newFolder().appendingPathComponent("missing").path
        let error = #expect(throws: FileWriteError.self) { try TemporaryFile(in: missing, prefix: ".download-") }
        #expect(error?.kind == .cannotCreate)
        #expect(error?.reason == "No such file or directory")
    }
}
