import AtomicFiles
import Foundation
import Testing

/// `PartialFolder`: the locked `.NAME.partials` a render without the cache fills with its
/// segments; and `Folders.make`, which says why a folder cannot be made. A second claim from
/// this process meets the first's flock as another process would (`NoCacheRaceTests` does it
/// with real renders).
@Suite struct PartialFolderTests {
    @Test func aFolderHeldByALiveWriterMakesASecondOneFailWithoutTouchingIt() throws {
        let dir = try newFolder()
        let output = dir.appendingPathComponent("out.mp4").path
        let first = try PartialFolder(output: output)
        #expect(first.path == dir.appendingPathComponent(".out.mp4.partials").path)
        try Data("a segment".utf8).write(to: URL(fileURLWithPath: first.path + "/part"))
        let error = #expect(throws: FileWriteError.self) { try PartialFolder(output: output) }
        #expect(error?.kind == .busy(holder: getpid()))
        #expect(error?.path == output)
        #expect(error?.message == "another process (pid \(getpid())) is writing this file now (its temporary folder \(first.path) is locked); "
                + "wait for it to finish, or write to another file")
        #expect(try String(contentsOfFile: first.path + "/part", encoding: .utf8) == "a segment")
        first.remove()
        #expect(try names(dir).isEmpty)
        // Once removed, the output is free again.
        let next = try PartialFolder(output: output)
        next.remove()
    }

    @Test func aLeftoverNobodyHoldsIsTakenOverWithWhatIsInIt() throws {
        let dir = try newFolder()
        let output = dir.appendingPathComponent("out.mp4").path
        let left = dir.appendingPathComponent(".out.mp4.partials")
        try FileManager.default.createDirectory(at: left, withIntermediateDirectories: false)
        try Data("a killed render's segment".utf8).write(to: left.appendingPathComponent("part"))
        let folder = try PartialFolder(output: output)
        #expect(try names(left) == ["part"])
        folder.remove()
        #expect(!FileManager.default.fileExists(atPath: left.path))
    }

    @Test func aSymlinkInItsPlaceIsRefusedAndItsTargetKept() throws {
        let dir = try newFolder()
        let elsewhere = dir.appendingPathComponent("precious")
        try FileManager.default.createDirectory(at: elsewhere, withIntermediateDirectories: false)
        try Data("footage".utf8).write(to: elsewhere.appendingPathComponent("clip.mp4"))
        try FileManager.default.createSymbolicLink(atPath: dir.appendingPathComponent(".out.mp4.partials").path, withDestinationPath: elsewhere.path)
        let error = #expect(throws: FileWriteError.self) { try PartialFolder(output: dir.appendingPathComponent("out.mp4").path) }
        #expect(error?.kind == .cannotCreate)
        #expect(try names(elsewhere) == ["clip.mp4"])
    }

    @Test func foldersAreMadeAsMkdirPMakesThemOrTheFailingOneIsNamed() throws {
        let dir = try newFolder()
        try Folders.make(dir.appendingPathComponent("a/b/c").path)
        try Folders.make(dir.appendingPathComponent("a/b/c").path) // there already
        #expect(try names(dir.appendingPathComponent("a/b")) == ["c"])
        try Data("a file".utf8).write(to: dir.appendingPathComponent("blocker"))
        for wanted in ["blocker", "blocker/inside"] {
            let error = #expect(throws: FolderFailure.self) { try Folders.make(dir.appendingPathComponent(wanted).path) }
            #expect(error?.folder == dir.appendingPathComponent("blocker").path, "\(wanted)")
            #expect(error?.reason == "Not a directory")
            #expect(error?.description == "cannot make the folder \(dir.appendingPathComponent("blocker").path): Not a directory")
        }
    }
}
