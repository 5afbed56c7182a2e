import AtomicFiles
import Foundation
import Testing

/// `PartialFile`: the locked `.NAME.partial` every writer fills before renaming it into place.
/// A flock belongs to an open file, so a second claim from this same process meets the first
/// exactly as another process would (the CLI tests do it with real, killed and stopped renders).
@Suite struct PartialFileTests {
    func inode(_ path: String) -> UInt64? {
        var info = stat()
        return lstat(path, &info) == 0 ? UInt64(info.st_ino) : nil
    }

    @Test func theFileIsWrittenBesideTheOutputAndRenamedOntoIt() throws {
        let dir = try newFolder()
        let output = dir.appendingPathComponent("out.png").path
        try Data("previous".utf8).write(to: URL(fileURLWithPath: output))
        let partial = try PartialFile(output: output)
        #expect(partial.path == dir.appendingPathComponent(".out.png.partial").path)
        try partial.write(Array("new bytes".utf8))
        #expect(try names(dir) == [".out.png.partial", "out.png"])
        #expect(try String(contentsOfFile: output, encoding: .utf8) == "previous")
        try partial.commit()
        #expect(try names(dir) == ["out.png"])
        #expect(try String(contentsOfFile: output, encoding: .utf8) == "new bytes")
    }

    @Test func aFileHeldByALiveWriterMakesASecondOneFailWithoutTouchingIt() throws {
        let dir = try newFolder()
        let output = dir.appendingPathComponent("out.mp4").path
        let first = try PartialFile(output: output)
        try first.write(Array("first writer's bytes".utf8))
        let held = inode(first.path)
        let error = #expect(throws: FileWriteError.self) { try PartialFile(output: output) }
        #expect(error?.kind == .busy(holder: getpid()))
        #expect(error?.path == output)
        #expect(error?.message == "another process (pid \(getpid())) is writing this file now (its temporary file \(first.path) is locked); "
                + "wait for it to finish, or write to another file")
        // A one-shot write meets the same lock.
        #expect(throws: FileWriteError.self) { try PartialFile.write([1, 2, 3] as [UInt8], to: output, sync: false) }
        #expect(inode(first.path) == held)
        #expect(try String(contentsOfFile: first.path, encoding: .utf8) == "first writer's bytes")
        #expect(!FileManager.default.fileExists(atPath: output))
        try first.commit()
        #expect(try String(contentsOfFile: output, encoding: .utf8) == "first writer's bytes")
        #expect(try names(dir) == ["out.mp4"])
        // Once the first is done, the next writer goes ahead.
        try PartialFile.write(Data([1, 2, 3]), to: output, sync: true)
        #expect(try Data(contentsOf: URL(fileURLWithPath: output)) == Data([1, 2, 3]))
    }

    @Test func aFileNobodyHoldsIsStaleAndTakenOver() throws {
        let dir = try newFolder()
        let output = dir.appendingPathComponent("out.mp4").path
        // What a killed writer leaves: the file, with no lock on it.
        let stale = dir.appendingPathComponent(".out.mp4.partial").path
        try Data(repeating: 7, count: 100_000).write(to: URL(fileURLWithPath: stale))
        let partial = try PartialFile(output: output)
        #expect(partial.path == stale)
        #expect(try FileManager.default.attributesOfItem(atPath: stale)[.size] as? Int == 0)
        try partial.write(Array("fresh".utf8))
        try partial.commit()
        #expect(try String(contentsOfFile: output, encoding: .utf8) == "fresh")
        #expect(try names(dir) == ["out.mp4"])
    }

    @Test func anUnfinishedFileIsRemovedWhenDiscardedOrReleased() throws {
        let dir = try newFolder()
        let output = dir.appendingPathComponent("out.mp4").path
        let partial = try PartialFile(output: output)
        try partial.write([1])
        partial.discard()
        #expect(try names(dir) == [])
        let closed = #expect(throws: FileWriteError.self) { try partial.commit() }
        #expect(closed?.kind == .closed)
        do {
            let released = try PartialFile(output: output)
            try released.write([1])
        }
        #expect(try names(dir) == [])
    }

    @Test func aSymlinkInItsPlaceIsNeverFollowed() throws {
        let dir = try newFolder()
        let precious = dir.appendingPathComponent("precious.mp4").path
        try Data("footage".utf8).write(to: URL(fileURLWithPath: precious))
        try FileManager.default.createSymbolicLink(atPath: dir.appendingPathComponent(".out.mp4.partial").path, withDestinationPath: precious)
        let error = #expect(throws: FileWriteError.self) { try PartialFile(output: dir.appendingPathComponent("out.mp4").path) }
        #expect(error?.kind == .cannotCreate)
        #expect(try String(contentsOfFile: precious, encoding: .utf8) == "footage")
    }

    @Test func aMissingFolderIsMadeAndOneThatCannotBeIsSaid() throws {
        let dir = try newFolder()
        let nested = dir.appendingPathComponent("renders/2026/out.mp4").path
        let file = try PartialFile(output: nested)
        #expect(FileManager.default.fileExists(atPath: file.path))
        file.discard()
        // A folder in the way is a file: nothing can be made there.
        try Data("a file".utf8).write(to: dir.appendingPathComponent("blocker"))
        let output = dir.appendingPathComponent("blocker/out.mp4").path
        let error = #expect(throws: FileWriteError.self) { try PartialFile(output: output) }
        #expect(error?.kind == .cannotCreate)
        #expect(error?.reason == "Not a directory")
        #expect(error?.message == "cannot make the folder \(dir.appendingPathComponent("blocker").path): Not a directory", "\(error?.message ?? "")")
    }
}
