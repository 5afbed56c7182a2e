import Foundation
import MediaIO
import MediaTime
import Testing
import TestSupport

/// Each broken input gives a `MediaError` naming the file and saying what is wrong.
@Suite struct BadMediaTests {
    static func mp4(faststart: Bool) throws -> String {
        try MediaFactory.file(faststart ? "good-faststart.mp4" : "good.mp4",
                              ["-f", "lavfi", "-i", "testsrc2=s=160x120:r=25:d=2", "-c:v", "libx264", "-g", "10"]
                              + (faststart ? ["-movflags", "+faststart"] : []))
    }

    static func derived(_ name: String, _ make: (String) throws -> Void) throws -> String {
        try MediaFactory.file(name, make: make)
    }

    /// Opens the file as video and reads every frame; returns the error.
    static func failure(_ path: String, as kind: MediaError.Kind) -> MediaError? {
        let error = #expect(throws: MediaError.self) {
            let reader = try VideoReader(path: path)
            for n in 0..<50 { _ = try reader.frame(at: MediaTime(Int64(n), 25)) }
        }
        #expect(error?.kind == kind, "\(error?.description ?? "no error")")
        #expect(error?.description.contains(path) == true)
        return error
    }

    @Test func missingFile() {
        let error = Self.failure(MediaFactory.path("nowhere.mp4"), as: .fileNotFound)
        #expect(error?.description.contains("no such file") == true)
        #expect(throws: MediaError.self) { try MediaProbe.probe(path: MediaFactory.path("nowhere.mp4")) }
    }

    @Test func folder() {
        #expect(Self.failure(MediaFactory.directory.path, as: .notAFile)?.description.contains("folder") == true)
    }

    @Test func emptyFile() throws {
        let path = try Self.derived("empty.mp4") { _ = FileManager.default.createFile(atPath: $0, contents: Data()) }
        #expect(Self.failure(path, as: .emptyFile)?.description.contains("empty") == true)
    }

    @Test func mp4CutInHalfBeforeItsIndex() throws {
        let good = try Self.mp4(faststart: false)
        let path = try Self.derived("half.mp4") { path in
            let data = try Data(contentsOf: URL(fileURLWithPath: good))
            try data.prefix(data.count / 2).write(to: URL(fileURLWithPath: path))
        }
        let error = Self.failure(path, as: .truncated)
        #expect(error?.description.contains("moov") == true)
    }

    @Test func mp4CutInHalfAfterItsIndex() throws {
        let good = try Self.mp4(faststart: true)
        let path = try Self.derived("half-faststart.mp4") { path in
            let data = try Data(contentsOf: URL(fileURLWithPath: good))
            try data.prefix(data.count / 2).write(to: URL(fileURLWithPath: path))
        }
        // The index is whole, so the file opens; reading runs into the cut.
        _ = try MediaProbe.probe(path: path)
        let error = #expect(throws: MediaError.self) {
            let reader = try VideoReader(path: path)
            for n in 0..<50 { _ = try reader.frame(at: MediaTime(Int64(n), 25)) }
        }
        #expect(error?.kind == .truncated || error?.kind == .decodingFailed, "\(error?.description ?? "")")
        #expect(error?.description.contains(path) == true && error?.time != nil)
    }

    @Test func corruptMoovAtom() throws {
        let good = try Self.mp4(faststart: true)
        let path = try Self.derived("bad-moov.mp4") { path in
            var data = try Data(contentsOf: URL(fileURLWithPath: good))
            let moov = data.range(of: Data("moov".utf8))!.upperBound
            data.replaceSubrange(moov..<(moov + 196), with: Data(repeating: 0xFF, count: 196))
            try data.write(to: URL(fileURLWithPath: path))
        }
        let error = Self.failure(path, as: .notMedia)
        #expect(error?.description.contains("no audio, video or image stream: its MP4/MOV index (moov atom) is damaged") == true)
    }

    @Test func randomBytesNamedMP4() throws {
        let path = try Self.derived("random.mp4") { path in
            var generator = SeededGenerator(seed: 7)
            try Data((0..<20000).map { _ in UInt8.random(in: 0...255, using: &generator) }).write(to: URL(fileURLWithPath: path))
        }
        #expect(Self.failure(path, as: .notMedia)?.description.contains("not a media file") == true)
    }

    @Test func textFile() throws {
        let path = try Self.derived("notes.txt") { try "Shot list:\n1. wide\n2. close\n".write(toFile: $0, atomically: true, encoding: .utf8) }
        #expect(Self.failure(path, as: .notMedia) != nil)
    }

    @Test func audioOnlyFileUsedAsVideo() throws {
        let path = try MediaFactory.file("tone.m4a", ["-f", "lavfi", "-i", "sine=d=1", "-c:a", "aac"])
        let error = Self.failure(path, as: .noVideoStream)
        #expect(error?.description.contains("has no video") == true && error?.description.contains("audio") == true)
        // …and a video-only file used as audio.
        let video = try Self.mp4(faststart: false)
        let audioError = #expect(throws: MediaError.self) { try AudioReader(path: video, sampleRate: 48000, channels: 2) }
        #expect(audioError?.kind == .noAudioStream)
    }

    @Test func unsupportedCodec() throws {
        let path = try Self.derived("unknown-codec.avi") { path in
            let source = MediaFactory.path("xvid-source.avi")
            try MediaFactory.ffmpeg(["-f", "lavfi", "-i", "testsrc2=s=160x120:r=25:d=1", "-c:v", "mpeg4", "-vtag", "XVID", source])
            // An unknown FourCC: FFmpeg sees a video stream it has no decoder for.
            var data = try Data(contentsOf: URL(fileURLWithPath: source))
            while let range = data.range(of: Data("XVID".utf8)) { data.replaceSubrange(range, with: Data("QQQQ".utf8)) }
            try data.write(to: URL(fileURLWithPath: path))
        }
        #expect(try MediaProbe.probe(path: path).video?.codec == "none")
        let error = Self.failure(path, as: .unsupportedCodec)
        #expect(error?.description.contains("cannot be decoded") == true)
    }
}
