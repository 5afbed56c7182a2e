import AtomicFiles
import Foundation
import Testing

/// `StagedFiles`: files of one output moved into their folder together (image sequences;
/// `MediaIOTests.ImageSequenceWriterTests` test them as sequences).
@Suite struct StagedFilesTests {
    @Test func filesAppearTogetherAndLeftoversGo() throws {
        let dir = try newFolder()
        let output = dir.appendingPathComponent("f%03d.png").path
        try Data([9]).write(to: dir.appendingPathComponent("f003.png"))
        let staged = try StagedFiles(output: output)
        try staged.write([1], as: "f001.png")
        try staged.write([2], as: "f002.png")
        #expect(try names(dir) == [".f%03d.png.partial", ".f%03d.png.partial-frames", "f003.png"])
        #expect(throws: FileWriteError.self) { try StagedFiles(output: output) }
        try staged.commit(removing: [dir.appendingPathComponent("f003.png").path])
        #expect(try names(dir) == ["f001.png", "f002.png"])
        #expect(staged.names == ["f001.png", "f002.png"])
    }

    @Test func discardedFilesLeaveTheFolderAsItWas() throws {
        let dir = try newFolder()
        try Data([9]).write(to: dir.appendingPathComponent("f001.png"))
        let staged = try StagedFiles(output: dir.appendingPathComponent("f%03d.png").path)
        try staged.write([1], as: "f001.png")
        staged.discard()
        #expect(try names(dir) == ["f001.png"])
        #expect(try Data(contentsOf: dir.appendingPathComponent("f001.png")) == Data([9]))
        let error = #expect(throws: FileWriteError.self) { try staged.write([2], as: "f002.png") }
        #expect(error?.kind == .cannotWrite)
    }
}
