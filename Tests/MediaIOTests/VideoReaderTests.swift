import Foundation
@testable import MediaIO
import MediaTime
import Testing
import TestSupport

/// A numbered test clip: how to make it and how to read it.
struct NumberedClip: CustomTestStringConvertible, Sendable {
    let name: String
    let arguments: [String]
    var testDescription: String { name }

    static func h264(_ name: String, rate: String, pixelFormat: String = "yuv420p", filters: [String] = [],
                     extra: [String] = []) -> NumberedClip {
        NumberedClip(name: name, arguments: FrameNumberPattern.arguments(
            size: "160x120", rate: rate, seconds: "3", filters: filters,
            output: ["-c:v", "libx264", "-preset", "veryfast", "-crf", "18", "-bf", "3", "-g", "24", "-pix_fmt", pixelFormat] + extra))
    }

    static let all: [NumberedClip] = [
        .h264("n23976.mp4", rate: "24000/1001"),
        .h264("n25.mp4", rate: "25"),
        .h264("n2997.mp4", rate: "30000/1001"),
        .h264("n30.mp4", rate: "30"),
        // Durations cycle 1, 1, 2 frames at 1/30 s.
        .h264("nvfr.mp4", rate: "30", filters: ["setpts='(N+floor(N/3))/(30*TB)'"], extra: ["-fps_mode", "passthrough"]),
        // Frames 10–17 each held about a second: a frame shown long after it starts may be a
        // B-frame nothing refers to, which a reader catching up must not drop.
        .h264("ngaps.mp4", rate: "30", filters: ["setpts='(N+30*clip(N-10,0,8))/(30*TB)'"], extra: ["-fps_mode", "passthrough"]),
        // MPEG-TS starts at 1.4 s: the first timestamp is not zero.
        .h264("n25.ts", rate: "25"),
        .h264("n2997.mkv", rate: "30000/1001"),
        .h264("n444.mp4", rate: "25", pixelFormat: "yuv444p"),
        .h264("n10bit.mp4", rate: "25", pixelFormat: "yuv420p10le"),
        NumberedClip(name: "nodd.webm", arguments: FrameNumberPattern.arguments(
            size: "854x480", rate: "25", seconds: "2", filters: ["scale=853:479"],
            output: ["-c:v", "libvpx-vp9", "-deadline", "realtime", "-cpu-used", "8", "-crf", "20", "-b:v", "0",
                     "-g", "24", "-pix_fmt", "yuv420p"])),
    ]

    func make() throws -> String { try MediaFactory.file(name, arguments) }
}

@Suite struct VideoReaderTests {
    @Test(arguments: NumberedClip.all)
    func randomAccessShowsTheFrameAtEachTime(_ clip: NumberedClip) throws {
        let path = try clip.make()
        let times = try ffprobeFrameTimes(path)
        let reader = try VideoReader(path: path, options: .init(pixelFormat: .yuv420p))
        let end = times.last! + MediaTime(1, 10)
        var generator = SplitMix64(seed: 42)
        var requests: [MediaTime] = []
        for _ in 0..<120 { requests.append(MediaTime(Rational(Int64.random(in: 0..<Int64(end.seconds * 48000), using: &generator), 48000))) }
        for _ in 0..<40 { requests.append(times.randomElement(using: &generator)!) } // exact frame starts
        for _ in 0..<40 { requests.append(times.randomElement(using: &generator)! - MediaTime(1, 90000)) } // just before
        for t in requests {
            let frame = try reader.frame(at: t)
            let expected = expectedFrame(at: t, times: times)
            #expect(FrameNumberPattern.number(in: frame) == expected, "\(clip.name) at \(t)")
            #expect(frame.time == times[expected], "\(clip.name) at \(t)")
        }
        #expect(reader.seekCount > 0)
    }

    @Test(arguments: NumberedClip.all)
    func sequentialReadingShowsEveryFrameWithoutSeeking(_ clip: NumberedClip) throws {
        let path = try clip.make()
        let times = try ffprobeFrameTimes(path)
        let reader = try VideoReader(path: path, options: .init(pixelFormat: .yuv420p))
        // 60 requests per second: several per frame, each frame boundary crossed in order.
        var seen: Set<Int> = []
        let last = (times.last! + MediaTime(1, 10)).frameIndex(frameDuration: MediaTime(1, 60))
        for k in 0...last {
            let t = MediaTime.frame(k, duration: MediaTime(1, 60))
            let n = FrameNumberPattern.number(in: try reader.frame(at: t))
            #expect(n == expectedFrame(at: t, times: times), "\(clip.name) at \(t)")
            seen.insert(n)
        }
        #expect(reader.seekCount == 0)
        // Every frame lasting at least 1/60 s was seen.
        #expect(seen.count >= times.count - 1)
    }

    @Test func aFirstRequestFarInSeeksInsteadOfDecodingEverything() throws {
        let path = try NumberedClip.all.first { $0.name == "n25.mp4" }!.make()
        let reader = try VideoReader(path: path, options: .init(pixelFormat: .yuv420p))
        #expect(FrameNumberPattern.number(in: try reader.frame(at: MediaTime(2, 1))) == 50)
        #expect(reader.seekCount == 1)
        let still = try VideoReader(path: try MediaRecipe.probed.first { $0.name == "alpha.png" }!.make())
        #expect(try still.frame(at: MediaTime(3600, 1)).width == 64)
        #expect(still.seekCount == 0)
    }

    @Test func nativeFramesNeedNoConversionAndKeepTheirFormat() throws {
        let path = try NumberedClip.all.first { $0.name == "n10bit.mp4" }!.make()
        let reader = try VideoReader(path: path)
        let frame = try reader.frame(at: MediaTime(1, 1))
        #expect(frame.pixelFormat.name == "yuv420p10le")
        #expect(frame.width == 160 && frame.height == 120)
        #expect(frame.time == MediaTime(1, 1))
    }

    @Test func framesAreScaledToTheRequestedSizeAndFormat() throws {
        let path = try NumberedClip.all.first { $0.name == "n25.mp4" }!.make()
        let reader = try VideoReader(path: path, options: .init(pixelFormat: .yuv420p, size: (320, 240), scaler: .lanczos))
        let frame = try reader.frame(at: MediaTime(2, 1))
        #expect(frame.width == 320 && frame.height == 240 && frame.pixelFormat == .yuv420p)
        #expect(FrameNumberPattern.number(in: frame) == 50)
    }
}
