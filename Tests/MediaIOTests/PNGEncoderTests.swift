import Foundation
import MediaIO
import MediaTime
import Testing
import TestSupport

@Suite struct PNGEncoderTests {
    /// A 37×21 RGB frame whose every pixel differs from its neighbours.
    static func patternFrame(_ format: PixelFormat) throws -> VideoFrame {
        let frame = try VideoFrame(width: 37, height: 21, pixelFormat: format)
        let p = frame.plane(0), bytes = format == .rgba ? 4 : 3
        for y in 0..<p.height {
            let row = (p.baseAddress + y * p.bytesPerRow).assumingMemoryBound(to: UInt8.self)
            for x in 0..<p.width {
                row[bytes * x] = UInt8(x * 7 % 256)
                row[bytes * x + 1] = UInt8(y * 11 % 256)
                row[bytes * x + 2] = UInt8((x * y) % 256)
                if bytes == 4 { row[3 + 4 * x] = UInt8((x + y) * 5 % 256) }
            }
        }
        return frame
    }

    static func packed(_ frame: VideoFrame, bytesPerPixel: Int) -> Data {
        let p = frame.plane(0)
        var data = Data()
        for y in 0..<p.height { data.append(Data(bytes: p.baseAddress + y * p.bytesPerRow, count: bytesPerPixel * p.width)) }
        return data
    }

    @Test(arguments: [("rgb24", 3), ("rgba", 4)])
    func ffmpegDecodesTheExactPixels(format: String, bytesPerPixel: Int) throws {
        let frame = try Self.patternFrame(PixelFormat(name: format)!)
        let path = MediaFactory.path("pattern-\(format).png")
        try PNGEncoder.write(frame, to: path)
        let raw = MediaFactory.path("pattern-\(format).raw")
        try MediaFactory.ffmpeg(["-i", path, "-f", "rawvideo", "-pix_fmt", format, raw])
        #expect(try Data(contentsOf: URL(fileURLWithPath: raw)) == Self.packed(frame, bytesPerPixel: bytesPerPixel))
        #expect(try PNGEncoder.encode(frame) == PNGEncoder.encode(frame))
    }

    @Test func yuvFramesAreConvertedWithTheirColourSpace() throws {
        let frame = try VideoFrame(width: 16, height: 8, pixelFormat: .yuv420p, colorSpace: .bt709)
        for i in 0..<3 {
            let p = frame.plane(i)
            for y in 0..<p.height { (p.baseAddress + y * p.bytesPerRow).initializeMemory(as: UInt8.self, repeating: i == 0 ? 235 : 128, count: p.width) }
        }
        let bytes = try PNGEncoder.encode(frame)
        #expect(Array(bytes.prefix(8)) == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        let path = MediaFactory.path("white-from-yuv.png")
        try PNGEncoder.writeAtomically(bytes, to: path)
        let raw = MediaFactory.path("white-from-yuv.raw")
        try MediaFactory.ffmpeg(["-i", path, "-f", "rawvideo", "-pix_fmt", "rgb24", raw])
        #expect(try Data(contentsOf: URL(fileURLWithPath: raw)) == Data(repeating: 255, count: 16 * 8 * 3))
    }

    @Test func aFailedWriteLeavesNothingBehind() throws {
        let folder = MediaFactory.path("png-readonly")
        try? FileManager.default.removeItem(atPath: folder)
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        // A file stands where the output's folder should be: no folder can be made there.
        try Data("a file".utf8).write(to: URL(fileURLWithPath: folder + "/blocker"))
        let target = folder + "/blocker/out.png"
        #expect {
            try PNGEncoder.write(try Self.patternFrame(.rgb24), to: target)
        } throws: { error in
            (error as? MediaError)?.kind == .writingFailed && "\(error)".contains("blocker/out.png")
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == ["blocker"])
    }
}
