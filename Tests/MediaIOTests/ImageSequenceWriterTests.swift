import Foundation
import MediaFormat
import MediaIO
import TestSupport
import Testing

/// Image sequences written whole or not at all, numbered from 1 as FFmpeg's image2 does.
@Suite struct ImageSequenceWriterTests {
    func freshFolder(_ name: String) throws -> String {
        let folder = MediaFactory.path(name)
        try? FileManager.default.removeItem(atPath: folder)
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        return folder
    }

    @Test func patternsNumberFiles() {
        #expect(ImageSequencePattern.fileName("a/shot%04d.png", number: 7) == "shot0007.png")
        #expect(ImageSequencePattern.fileName("a/%d.jpg", number: 12) == "12.jpg")
        #expect(ImageSequencePattern.fileName("f%03d.png", number: 12345) == "f12345.png")
        #expect(ImageSequencePattern.has("x/f%02d.png") && !ImageSequencePattern.has("x%04d/f.png"))
        #expect(ImageSequencePattern.suggestion(for: "out/frames.png") == "out/frames%04d.png")
    }

    @Test func aFileIsOfASequenceOnlyUnderTheNameThePatternGivesItsNumber() throws {
        #expect(ImageSequencePattern.number(ofFileName: "shot0012.png", in: "a/shot%04d.png") == 12)
        #expect(ImageSequencePattern.number(ofFileName: "shot12345.png", in: "a/shot%04d.png") == 12345)
        #expect(ImageSequencePattern.number(ofFileName: "shot012.png", in: "a/shot%04d.png") == nil)
        #expect(ImageSequencePattern.number(ofFileName: "007.jpg", in: "%d.jpg") == nil)
        let folder = try freshFolder("sequence-numbers")
        for name in ["f1001.png", "f1000.png", "f01002.png", "g1003.png"] { try Data([1]).write(to: URL(fileURLWithPath: folder + "/" + name)) }
        #expect(ImageSequencePattern.numberedFiles(of: folder + "/f%04d.png")?.map(\.number) == [1000, 1001])
    }

    @Test func filesAppearOnlyWhenFinished() throws {
        let folder = try freshFolder("sequence-finish")
        try Data([9]).write(to: URL(fileURLWithPath: folder + "/f005.png"))
        let writer = try ImageSequenceWriter(pattern: folder + "/f%03d.png")
        try writer.write([1], frame: 0)
        try writer.write([2], frame: 1)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder).filter { !$0.hasPrefix(".") } == ["f005.png"])
        try writer.finish()
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder).sorted() == ["f001.png", "f002.png"])
        #expect(try Data(contentsOf: URL(fileURLWithPath: folder + "/f002.png")) == Data([2]))
    }

    @Test func aDiscardedSequenceLeavesTheOldOneAlone() throws {
        let folder = try freshFolder("sequence-discard")
        try Data([9]).write(to: URL(fileURLWithPath: folder + "/f001.png"))
        let writer = try ImageSequenceWriter(pattern: folder + "/f%03d.png")
        try writer.write([1], frame: 0)
        try writer.write([2], frame: 1)
        writer.discard()
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == ["f001.png"])
        #expect(try Data(contentsOf: URL(fileURLWithPath: folder + "/f001.png")) == Data([9]))
    }

    @Test func aSecondWriterOfTheSamePatternIsRefused() throws {
        let folder = try freshFolder("sequence-twice")
        let first = try ImageSequenceWriter(pattern: folder + "/f%03d.png")
        #expect(throws: MediaError.self) { _ = try ImageSequenceWriter(pattern: folder + "/f%03d.png") }
        first.discard()
    }
}
