import Foundation
import MediaIO
import MediaTime
import Testing
import TestSupport

/// Each broken input gives a `MediaError` naming the file and saying what is wrong.
@Suite struct BadMediaTests {
    static func mp4(faststart: Bool) throws -> String { try HostileMedia.video(faststart: faststart) }

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

    /// A playlist or a list of other files is refused before it reads any of them: its files'
    /// bytes would key no segment and escape every rule on what a render reads.
    @Test func playlistsAndListsOfOtherFilesAreRefused() throws {
        let clip = try Self.mp4(faststart: true)
        let folder = MediaFactory.folder("lists")
        let playlist = folder.appendingPathComponent("clip.m3u8").path
        try MediaFactory.ffmpeg(["-i", clip, "-c", "copy", "-f", "hls", "-hls_time", "1", playlist])
        let list = folder.appendingPathComponent("clip.ffconcat").path
        try "ffconcat version 1.0\nfile '\(clip)'\n".write(toFile: list, atomically: true, encoding: .utf8)
        for path in [playlist, list] {
            #expect {
                try MediaProbe.probe(path: path)
            } throws: { error in
                (error as? MediaError)?.kind == .notMedia && "\(error)".contains("names other files to read")
            }
        }
        #expect(try MediaProbe.probe(path: clip).streams.isEmpty == false)
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
        let path = try HostileMedia.empty()
        #expect(Self.failure(path, as: .emptyFile)?.description.contains("empty") == true)
    }

    @Test func mp4CutInHalfBeforeItsIndex() throws {
        let path = try HostileMedia.truncated(at: 0.5, faststart: false)
        let error = Self.failure(path, as: .truncated)
        #expect(error?.description.contains("moov") == true)
    }

    @Test func mp4CutInHalfAfterItsIndex() throws {
        let path = try HostileMedia.truncated(at: 0.5, faststart: true)
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
        let path = try HostileMedia.randomBytes()
        #expect(Self.failure(path, as: .notMedia)?.description.contains("not a media file") == true)
    }

    @Test func textFile() throws {
        let path = try HostileMedia.text(named: "notes.txt")
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
        let path = try HostileMedia.unknownCodec()
        let info = try MediaProbe.probe(path: path)
        #expect(info.video?.codec == "none")
        // The probe describes it; validation asks this and refuses it before rendering.
        #expect(info.undecodableProblem?.contains("codec 'none'") == true)
        #expect(try MediaProbe.probe(path: Self.mp4(faststart: false)).undecodableProblem == nil)
        let error = Self.failure(path, as: .unsupportedCodec)
        #expect(error?.description.contains("cannot be decoded") == true)
    }

    // MARK: Pictures beyond the decode caps (DecodeLimits / PictureLimits)

    /// Opening must not decode: the refusal comes from the header, in well under a second of CPU and
    /// without allocating the picture.
    static func refusedBeforeDecoding(_ path: String, _ size: String) {
        let before = Memory.residentBytes()
        var error: MediaError?
        let cpu = threadCPUSeconds { error = #expect(throws: MediaError.self) { try MediaProbe.probe(path: path) } }
        #expect(error?.kind == .tooLarge, "\(error?.description ?? "")")
        #expect(error?.description.contains(path) == true && error?.description.contains(size) == true)
        #expect(error?.description.contains("at most 16384 pixels a side and 268435456 pixels in all") == true)
        #expect(cpu < 1, "\(cpu) s of CPU")
        #expect(Memory.residentBytes() - before < 64 << 20)
        let reader = #expect(throws: MediaError.self) { try VideoReader(path: path) }
        #expect(reader?.kind == .tooLarge)
    }

    @Test func pngDeclaringThirtyThousandSquareIsRefused() throws {
        Self.refusedBeforeDecoding(try HostileMedia.declaredPNG(width: 30000, height: 30000), "30000x30000")
        // One side over the cap is enough, however few pixels.
        Self.refusedBeforeDecoding(try HostileMedia.declaredPNG(width: 20000, height: 8), "20000x8")
    }

    @Test func decompressionBombIsRefused() throws {
        let path = try HostileMedia.pngBomb(width: 30000, height: 30000)
        let size = try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int ?? 0
        #expect(size < 1_000_000, "the bomb is small: \(size) bytes")
        Self.refusedBeforeDecoding(path, "30000x30000")
        // The same writer's small picture decodes: the bomb is a real PNG, not just a header.
        let small = try HostileMedia.pngBomb(width: 640, height: 480)
        let info = try MediaProbe.probe(path: small)
        #expect(info.video?.video?.width == 640 && info.video?.video?.height == 480)
        let frame = try VideoReader(path: small).frame(at: .zero)
        #expect(frame.width == 640)
    }

    @Test func otherImageHeadersAreReadToo() throws {
        // JPEG (start-of-frame), GIF (screen descriptor) and BMP (info header) patched to 40000 x 40000.
        let jpeg = try MediaFactory.file("small.jpg", ["-f", "lavfi", "-i", "color=c=red:s=64x48", "-frames:v", "1"])
        let patchedJPEG = try Self.derived("declared-40000.jpg") { path in
            var data = [UInt8](try Data(contentsOf: URL(fileURLWithPath: jpeg)))
            let sof = try #require(data.firstRange(of: [0xFF, 0xC0])).lowerBound
            data.replaceSubrange((sof + 5)..<(sof + 9), with: [0x9C, 0x40, 0x9C, 0x40])
            try Data(data).write(to: URL(fileURLWithPath: path))
        }
        Self.refusedBeforeDecoding(patchedJPEG, "40000x40000")
        let gif = try MediaFactory.file("small.gif", ["-f", "lavfi", "-i", "color=c=red:s=64x48", "-frames:v", "1"])
        let patchedGIF = try Self.derived("declared-40000.gif") { path in
            var data = [UInt8](try Data(contentsOf: URL(fileURLWithPath: gif)))
            data.replaceSubrange(6..<10, with: [0x40, 0x9C, 0x40, 0x9C])
            try Data(data).write(to: URL(fileURLWithPath: path))
        }
        Self.refusedBeforeDecoding(patchedGIF, "40000x40000")
        let bmp = try MediaFactory.file("small.bmp", ["-f", "lavfi", "-i", "color=c=red:s=64x48", "-frames:v", "1"])
        let patchedBMP = try Self.derived("declared-40000.bmp") { path in
            var data = [UInt8](try Data(contentsOf: URL(fileURLWithPath: bmp)))
            data.replaceSubrange(18..<26, with: [0x40, 0x9C, 0, 0, 0x40, 0x9C, 0, 0])
            try Data(data).write(to: URL(fileURLWithPath: path))
        }
        Self.refusedBeforeDecoding(patchedBMP, "40000x40000")
        // The unpatched pictures are fine.
        for path in [jpeg, gif, bmp] { #expect(try MediaProbe.probe(path: path).video?.video?.width == 64) }
    }

    /// A text file named .png opens as a PNG stream of 0x0 (FFmpeg picks the demuxer by name).
    @Test func textFileNamedPNG() throws {
        let path = try HostileMedia.text(named: "notes.png")
        let error = #expect(throws: MediaError.self) { try MediaProbe.probe(path: path) }
        #expect(error?.kind == .notMedia && error?.description.contains("Invalid PNG signature") == true, "\(error?.description ?? "")")
        _ = Self.failure(path, as: .notMedia)
    }

    @Test func noFrameDecodes() throws {
        let path = try HostileMedia.garbledFrames()
        _ = try MediaProbe.probe(path: path) // the index is whole
        let error = #expect(throws: MediaError.self) {
            let reader = try VideoReader(path: path)
            for n in 0..<50 { _ = try reader.frame(at: MediaTime(Int64(n), 25)) }
        }
        #expect(error?.kind == .decodingFailed, "\(error?.description ?? "")")
        #expect(error?.description.contains(path) == true && error?.time != nil)
    }
}
