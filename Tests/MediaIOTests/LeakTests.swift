import Foundation
import MediaIO
import MediaTime
import Testing
import TestSupport

/// Open → decode → encode → close in a loop must not grow the process's heap.
@Suite struct LeakTests {
    /// One round: probe, decode video (converted and scaled) and audio, encode and mux, close.
    static func round(source: String, output: String) throws {
        _ = try MediaProbe.probe(path: source)
        // One thread everywhere: glibc caches the stacks of ended threads (up to 40 MB), which
        // made the resident size wander by megabytes from round to round.
        let video = try VideoReader(path: source, options: .init(pixelFormat: .rgba, size: (320, 240), decoderThreads: 1))
        let audio = try AudioReader(path: source, sampleRate: 48000, channels: 2)
        let settings = WriterSettings(container: .mp4,
                                      video: .init(codec: .h264, width: 320, height: 240, frameRate: Rational(25), preset: "ultrafast", threads: 1),
                                      audio: .init(codec: .aac))
        let writer = try MediaWriter(path: output, settings: settings)
        for n in 0..<12 {
            let t = MediaTime(Int64(n), 25)
            try writer.append(video: try video.frame(at: t), at: Int64(n)) // rgba → yuv420p in the writer
            try writer.append(audio: try audio.read(range: TimeRange(start: t, duration: MediaTime(1, 25))))
        }
        _ = try video.frame(at: MediaTime(1, 1)) // a seek
        try writer.finish()
    }

    @Test func openDecodeEncodeCloseLoopDoesNotGrow() async throws {
        let source = try MediaFactory.file("leak-source.mp4", ["-f", "lavfi", "-i", "testsrc2=s=320x240:r=25:d=2", "-f", "lavfi",
                                                               "-i", "sine=d=2", "-c:v", "libx264", "-c:a", "aac", "-shortest"])
        let output = MediaFactory.path("leak-out.mp4")
        func rounds(_ count: Int) throws { for _ in 0..<count { try Self.round(source: source, output: output) } }
        guard let heap = try await Memory.measuredAlone("openDecodeEncodeCloseLoopDoesNotGrow", {
            try await HeapWindows.measure(warmUp: { try rounds(8) }, window: { try rounds(40) }) // warm-up: pools, caches, arenas
        }) else { return }
        // Measured: windows from −112 KB to +2 KB, the median under 2 KB. A leaked 320x240 RGBA
        // frame per round would be 40 × 300 KB = 12 MB a window; 480 bytes malloc'ed in `round`
        // and never freed (an AVFrame struct's size) gave a median of 19,840 bytes.
        #expect(heap.medianGrowth < 4_000, "\(heap)")
        print("leak loop: \(heap)")
    }
}
