import CompositionGraph
import Foundation
import MediaTime
import TestSupport
import Testing
@testable import RenderEngine

/// 30 minutes of 3-second clips (600 cuts, each trimmed differently) at 64x36, 10 fps: at
/// the end, beeps still start within 1 ms of their flash frames, so nothing drifts.
/// It takes minutes in a debug build, so it runs when `REEL_LONG_TESTS=1`
/// (`REEL_LONG_TESTS=1 swift test --filter LongTimelineSync`).
@Suite(.enabled(if: ProcessInfo.processInfo.environment["REEL_LONG_TESTS"] == "1", "set REEL_LONG_TESTS=1 to run the 30-minute render"))
struct LongTimelineSyncTests {
    /// 10 s at 10 fps, 64x36: a white frame at each whole second and a 20 ms beep with it.
    static func flashes() throws -> String {
        try MediaFactory.file("render-flash-beep-10fps.mp4", [
            "-f", "lavfi", "-i", "color=c=black:s=64x36:r=10:d=10,geq=lum='if(lt(mod(N\\,10)\\,1)\\,235\\,16)':cb=128:cr=128",
            "-f", "lavfi", "-i", "aevalsrc='if(lt(mod(t\\,1)\\,0.02)\\,0.8*sin(2*PI*1000*t)\\,0)':s=48000:d=10",
            "-c:v", "libx264", "-pix_fmt", "yuv420p", "-c:a", "aac", "-b:a", "128k", "-ac", "2",
        ])
    }

    @Test func thirtyMinutesOfCutsDoNotDrift() throws {
        let media = try MediaReference.probed("flash", Self.flashes())
        let clips = (0..<600).map { i in
            EndToEnd.Clip(media: media, source: TimeRange(start: seconds(Int64(1 + i % 7), 10), duration: seconds(3)),
                          target: TimeRange(start: seconds(Int64(3 * i)), duration: seconds(3)))
        }
        var graph = EndToEnd.sequence(clips, size: PixelSize(width: 64, height: 36), fps: 10, lossless: false)
        graph.output.video?.preset = "ultrafast"
        let out = try EndToEnd.render(graph, to: "long-sync.mp4")
        // Flash frames, from the decoded video's centre pixel.
        let frames = try EndToEnd.decodedFrames(out, width: 64, height: 36)
        let flashes = AVSyncTests.flashStarts(frames, width: 64, height: 36, fps: 10)
        // Beeps, streaming the decoded audio (30 minutes at 48 kHz).
        let raw = MediaFactory.path("long-sync.f32")
        try MediaFactory.ffmpeg(["-i", out, "-f", "f32le", "-ac", "1", "-ar", "48000", raw])
        defer { try? FileManager.default.removeItem(atPath: raw) }
        let beeps = try Self.beepStarts(streaming: raw, rate: 48000)
        #expect(frames.count == 18000)
        #expect(flashes.count == 1800, "\(flashes.count) flashes")
        #expect(beeps.count == flashes.count, "\(beeps.count) beeps")
        let worst = zip(flashes, beeps).map { abs($1 - $0) }.max() ?? .infinity
        #expect(worst <= 0.001, "worst beep-to-flash distance \(worst) s")
        if let lastFlash = flashes.last, let lastBeep = beeps.last { #expect(abs(lastBeep - lastFlash) <= 0.001 && lastFlash > 1790) }
    }

    /// `AVSyncTests.beepStarts` over a raw float file read in chunks.
    static func beepStarts(streaming path: String, rate: Double) throws -> [Double] {
        let handle = try FileHandle(forReadingFrom: URL(fileURLWithPath: path))
        defer { try? handle.close() }
        var starts: [Double] = [], quiet = Int(rate), index = 0
        while let chunk = try handle.read(upToCount: 1 << 22), !chunk.isEmpty {
            chunk.withUnsafeBytes { raw in
                for s in raw.bindMemory(to: Float.self) {
                    if abs(s) > 0.05 {
                        if quiet >= Int(rate / 100) { starts.append(Double(index) / rate) }
                        quiet = 0
                    } else {
                        quiet += 1
                    }
                    index += 1
                }
            }
        }
        return starts
    }
}
