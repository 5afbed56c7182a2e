import MediaFormat
import Foundation
@testable import MediaIO
import MediaTime
import Testing
import TestSupport

/// Writes `frames` numbered frames (and a 440 Hz tone) with `settings`; the pattern is painted
/// in-process so the bytes depend only on MediaIO.
func writeNumberedClip(to path: String, settings: WriterSettings, frames: Int = 30) throws {
    let writer = try MediaWriter(path: path, settings: settings)
    if let video = settings.video {
        let pool = try VideoFramePool(width: video.width, height: video.height, pixelFormat: .yuv420p)
        for n in 0..<frames {
            let frame = try pool.makeFrame()
            FrameNumberPattern.paint(n, into: frame)
            try writer.append(video: frame, at: Int64(n))
        }
    }
    if let audio = settings.audio {
        let duration = settings.video.map { MediaTime(Rational(Int64(frames)) / $0.frameRate) } ?? MediaTime(1, 1)
        let count = Int(duration.samplePosition(rate: audio.sampleRate))
        var samples = [Float](repeating: 0, count: count * audio.channels)
        for i in 0..<count {
            let v = Float(0.5 * sin(2 * Double.pi * 440 * Double(i) / Double(audio.sampleRate)))
            for c in 0..<audio.channels { samples[i * audio.channels + c] = v }
        }
        // In uneven pieces, as a mixer might hand them over.
        var start = 0
        while start < count {
            let end = min(count, start + 777)
            try writer.append(audio: Array(samples[(start * audio.channels)..<(end * audio.channels)]))
            start = end
        }
    }
    try writer.finish()
}

let referenceSettings = WriterSettings(
    container: .mp4,
    video: .init(codec: .h264, width: 160, height: 120, frameRate: Rational(25), quality: .crf(20), preset: "veryfast", gopSize: 12),
    audio: .init(codec: .aac, sampleRate: 48000, channels: 2, bitrate: 128_000),
    faststart: true, metadata: ["title": "Reel test", "comment": "numbered"])

@Suite struct MediaWriterTests {
    @Test func writtenFileReadsBackFrameForFrame() throws {
        let path = MediaFactory.path("written.mp4")
        try writeNumberedClip(to: path, settings: referenceSettings)
        let info = try MediaProbe.probe(path: path)
        #expect(info.video?.codec == "h264" && info.audio?.codec == "aac")
        #expect(info.video?.frameCount == 30)
        #expect(info.video?.video?.colorMatrix == "bt709" && info.video?.video?.colorPrimaries == "bt709")
        #expect(info.video?.video?.colorTransfer == "bt709" && info.video?.video?.colorRange == "tv")
        #expect(info.metadata["title"] == "Reel test")
        #expect(info.metadata["encoder"] == nil && info.metadata["creation_time"] == nil)
        let reader = try VideoReader(path: path, options: .init(pixelFormat: .yuv420p))
        for n in 0..<30 {
            let frame = try reader.frame(at: MediaTime.frame(Int64(n), duration: MediaTime(1, 25)))
            #expect(FrameNumberPattern.number(in: frame) == n)
            #expect(frame.time == MediaTime(Int64(n), 25))
        }
        // No encoder version string anywhere in the bytes.
        let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        #expect(bytes.range(of: Data("x264".utf8)) == nil)
        #expect(bytes.range(of: Data("Lavf".utf8)) == nil && bytes.range(of: Data("Lavc".utf8)) == nil)
        // faststart: the index comes before the media data.
        let moov = bytes.range(of: Data("moov".utf8))!.lowerBound, mdat = bytes.range(of: Data("mdat".utf8))!.lowerBound
        #expect(moov < mdat)
        // Audio: one second of tone, no leading gap.
        let audio = try AudioReader(path: path, sampleRate: 48000, channels: 2).read(range: TimeRange(start: MediaTime(1, 10), duration: MediaTime(1, 10)))
        #expect(audio.map { abs($0) }.max()! > 0.4)
    }

    /// The files the determinism test compares: the reference clip and a tiny one per codec case.
    static func writeDeterminismSet(prefix: String) throws -> [String] {
        var paths = [prefix + ".mp4"]
        try writeNumberedClip(to: paths[0], settings: referenceSettings)
        for index in codecCases.indices {
            let settings = codecSettings(index)
            paths.append(prefix + "-\(index).\(settings.container.rawValue)")
            try writeNumberedClip(to: paths.last!, settings: settings, frames: 10)
        }
        return paths
    }

    @Test func sameFramesGiveTheSameBytesEvenOnOneCPU() throws {
        if let childPrefix = ProcessInfo.processInfo.environment["REEL_WRITER_DETERMINISM_PREFIX"] {
            _ = try Self.writeDeterminismSet(prefix: childPrefix) // the run under taskset
            return
        }
        let first = try Self.writeDeterminismSet(prefix: MediaFactory.path("determinism-1"))
        let second = try Self.writeDeterminismSet(prefix: MediaFactory.path("determinism-2"))
        // This test binary again, restricted to CPU 0, running only this test in "write" mode.
        let binary = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().path
        try MediaFactory.run("taskset", ["-c", "0", binary, "--testing-library", "swift-testing",
                                         "--filter", "sameFramesGiveTheSameBytesEvenOnOneCPU"],
                             environment: ["REEL_WRITER_DETERMINISM_PREFIX": MediaFactory.path("determinism-taskset")])
        let oneCPU = first.map { $0.replacingOccurrences(of: "determinism-1", with: "determinism-taskset") }
        for (index, path) in first.enumerated() {
            let reference = try Data(contentsOf: URL(fileURLWithPath: path))
            #expect(reference.count > 500)
            #expect(try Data(contentsOf: URL(fileURLWithPath: second[index])) == reference, "\(path) written twice")
            #expect(try Data(contentsOf: URL(fileURLWithPath: oneCPU[index])) == reference, "\(path) under taskset -c 0")
        }
    }

    static let codecCases: [(Container, VideoCodec?, AudioCodec?)] = [
        (.mkv, .h265, .flac), (.webm, .vp9, .opus), (.mp4, .av1, .mp3), (.mov, .prores, .pcm), (.mkv, .h264, .opus),
    ]

    static func codecSettings(_ index: Int) -> WriterSettings {
        let (container, videoCodec, audioCodec) = codecCases[index]
        return WriterSettings(
            container: container,
            video: videoCodec.map {
                .init(codec: $0, width: 96, height: 64, frameRate: Rational(25), quality: .crf(30),
                      preset: $0 == .vp9 ? "realtime" : $0 == .av1 ? "8" : $0 == .prores ? "proxy" : "ultrafast",
                      pixelFormat: $0 == .prores ? PixelFormat(name: "yuv422p10le")! : .yuv420p)
            },
            audio: audioCodec.map { .init(codec: $0, sampleRate: 48000, channels: 2) })
    }

    @Test(arguments: 0..<codecCases.count)
    func everyCodecWritesAFileFFprobeReads(_ index: Int) throws {
        let (container, videoCodec, audioCodec) = Self.codecCases[index]
        let settings = Self.codecSettings(index)
        try MediaWriter.check(settings)
        let path = MediaFactory.path("codec-\(index).\(container.rawValue)")
        try writeNumberedClip(to: path, settings: settings, frames: 10)
        let json = try MediaFactory.ffprobe(path, ["-show_streams", "-count_frames"])
        let streams = json["streams"] as! [[String: Any]]
        let video = streams.first { $0["codec_type"] as? String == "video" }!
        #expect(video["codec_name"] as? String == ["h264": "h264", "h265": "hevc", "vp9": "vp9", "av1": "av1", "prores": "prores"][videoCodec!.rawValue])
        #expect(video["nb_read_frames"] as? String == "10")
        let audio = streams.first { $0["codec_type"] as? String == "audio" }!
        #expect(audio["codec_name"] as? String == ["flac": "flac", "opus": "opus", "mp3": "mp3", "pcm": "pcm_s16le"][audioCodec!.rawValue])
        // Converted from yuv420p where the encoder wants another format, and still numbered.
        let frame = try VideoReader(path: path, options: .init(pixelFormat: .yuv420p)).frame(at: MediaTime(7, 25))
        #expect(FrameNumberPattern.number(in: frame) == 7)
    }

    @Test(arguments: [
        (WriterSettings(container: .webm, video: .init(codec: .h264, width: 64, height: 64, frameRate: Rational(25)), audio: nil), "webm file cannot hold h264"),
        (WriterSettings(container: .webm, video: nil, audio: .init(codec: .aac)), "webm file cannot hold aac"),
        (WriterSettings(container: .mp4, video: nil, audio: .init(codec: .opus, sampleRate: 44100)), "cannot encode 44100 Hz"),
        (WriterSettings(container: .mp4, video: .init(codec: .h264, width: 64, height: 64, frameRate: Rational(25), preset: "warp9"), audio: nil), "preset warp9"),
        (WriterSettings(container: .mkv, video: .init(codec: .vp9, width: 64, height: 64, frameRate: Rational(25), pixelFormat: .rgba), audio: nil), "cannot encode rgba"),
        (WriterSettings(container: .mp4, video: nil, audio: nil), "nothing to write"),
    ])
    func impossibleSettingsFailBeforeAnyFrame(_ settings: WriterSettings, _ expected: String) throws {
        let error = #expect(throws: MediaError.self) { try MediaWriter.check(settings, path: "out.\(settings.container.rawValue)") }
        #expect(error?.kind == .unsupportedSettings)
        #expect(error?.description.contains(expected) == true, "\(error?.description ?? "")")
        #expect(error?.description.contains("out.\(settings.container.rawValue)") == true)
    }

    @Test func cancelRemovesTheTemporaryFileAndKeepsTheOldOutput() throws {
        let folder = MediaFactory.directory.appendingPathComponent("cancel-test")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let path = folder.appendingPathComponent("out.mp4").path
        try Data("previous".utf8).write(to: URL(fileURLWithPath: path))
        let writer = try MediaWriter(path: path, settings: referenceSettings)
        let frame = try VideoFrame(width: 160, height: 120, pixelFormat: .yuv420p)
        try writer.append(video: frame, at: 0)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).count == 2) // old output + temporary
        writer.cancel()
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["out.mp4"])
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "previous")
        #expect(throws: MediaError.self) { try writer.append(video: frame, at: 1) }
        // Finishing replaces the old file and leaves nothing else behind.
        try writeNumberedClip(to: path, settings: referenceSettings, frames: 5)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["out.mp4"])
        #expect(try MediaProbe.probe(path: path).video?.frameCount == 5)
    }
}

/// Audio written alongside video stays in sync when read back: encoder priming (AAC, Opus),
/// edit lists and Matroska's CodecDelay are accounted for on both sides.
@Suite struct WriterSyncTests {
    @Test(arguments: [(Container.mp4, VideoCodec.h264, AudioCodec.aac),
                      (.webm, .vp9, .opus), (.mkv, .h264, .opus), (.mkv, .h264, .aac), (.mov, .h264, .pcm), (.mp4, .h264, .mp3)])
    func clickStaysOnItsFrame(container: Container, video: VideoCodec, audio: AudioCodec) throws {
        let settings = WriterSettings(container: container,
                                      video: .init(codec: video, width: 64, height: 48, frameRate: Rational(25), preset: video == .vp9 ? "realtime" : "ultrafast"),
                                      audio: .init(codec: audio, sampleRate: 48000, channels: 1))
        let path = MediaFactory.path("sync-\(audio.rawValue).\(container.rawValue)")
        let writer = try MediaWriter(path: path, settings: settings)
        let pool = try VideoFramePool(width: 64, height: 48, pixelFormat: .yuv420p)
        for n in 0..<50 { // frame 25 (t = 1 s) is white, the click is at sample 48000 (t = 1 s)
            let frame = try pool.makeFrame()
            frame.withPlanes { planes in
                for (i, plane) in planes.enumerated() {
                    for y in 0..<plane.height {
                        memset(plane.baseAddress + y * plane.bytesPerRow, i == 0 ? (n == 25 ? 235 : 16) : 128, plane.width)
                    }
                }
            }
            try writer.append(video: frame, at: Int64(n))
            var samples = [Float](repeating: 0, count: 1920)
            if n == 25 { samples[0] = 0.9 }
            try writer.append(audio: samples)
        }
        try writer.finish()
        let reader = try VideoReader(path: path, options: .init(pixelFormat: .yuv420p))
        let luma = { (t: MediaTime) throws -> UInt8 in try reader.frame(at: t).plane(0).baseAddress.load(fromByteOffset: 0, as: UInt8.self) }
        #expect(try luma(MediaTime(1, 1)) > 200 && luma(MediaTime(24, 25)) < 50 && luma(MediaTime(26, 25)) < 50)
        let sound = try AudioReader(path: path, sampleRate: 48000, channels: 1).read(range: TimeRange(start: .zero, duration: MediaTime(2, 1)))
        let peak = sound.indices.max { abs(sound[$0]) < abs(sound[$1]) }!
        #expect(abs(peak - 48000) <= 3, "\(container) \(audio): click at sample \(peak), expected 48000")
    }
}
