import AtomicFiles
import Foundation
import MediaIO
import Testing
import TestSupport

/// MediaIO's writers go through `PartialFile` and say its failures as `MediaError`s, in its
/// words (`AtomicFilesTests` test the file itself).
@Suite struct WriterLockTests {
    @Test func pngsAndMediaWritersMeetALiveWritersLock() throws {
        let folder = MediaFactory.folder("writer-lock-\(UUID().uuidString)")
        let output = folder.appendingPathComponent("out.mp4").path
        let first = try PartialFile(output: output)
        let busy = "another process (pid \(getpid())) is writing this file now (its temporary file \(first.path) is locked); "
            + "wait for it to finish, or write to another file"
        let png = #expect(throws: MediaError.self) { try PNGEncoder.writeAtomically([1, 2, 3], to: output) }
        #expect(png == MediaError(.writingFailed, path: output, busy))
        let writer = #expect(throws: MediaError.self) { try MediaWriter(path: output, settings: referenceSettings) }
        #expect(writer == MediaError(.writingFailed, path: output, busy))
        first.discard()
        try PNGEncoder.writeAtomically([1, 2, 3], to: output)
        #expect(try Data(contentsOf: URL(fileURLWithPath: output)) == Data([1, 2, 3]))
    }

    @Test func aFolderThatCannotBeMadeIsSaid() throws {
        let folder = MediaFactory.folder("writer-blocked-\(UUID().uuidString)")
        // A folder in the way is a file: nothing can be made there.
        try Data("a file".utf8).write(to: folder.appendingPathComponent("blocker"))
        let output = folder.appendingPathComponent("blocker/out.mp4").path
        let error = #expect(throws: MediaError.self) { try MediaWriter(path: output, settings: referenceSettings) }
        #expect(error?.kind == .writingFailed)
        #expect(error?.message.contains("cannot make the folder \(folder.appendingPathComponent("blocker").path): Not a directory") == true, "\(error?.message ?? "")")
    }
}
