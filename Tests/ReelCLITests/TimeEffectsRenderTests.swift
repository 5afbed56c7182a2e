import Foundation
import TestSupport
import Testing

/// Speed ramps, reverse and freeze frames, checked on rendered files by pixels and samples.
/// The picture source's frame n is a flat grey of luma 16 + 2n (25 fps, 4 s, a keyframe every
/// 12 frames, B-frames, coded nearly losslessly), so a frame's level says which source frame
/// it is; the output is coded losslessly (crf 0) at the source's size.
@Suite(.serialized) struct TimeEffectsRenderTests {
    static let folder: URL = MediaFactory.folder("time-effects")

    /// Writes the media and `project` (YAML) into the folder; returns the project's path.
    func project(_ name: String, _ text: String) throws -> String {
        // Tagged BT.709 limited, the output's colours: the levels pass unconverted.
        let tags = ["-colorspace", "bt709", "-color_primaries", "bt709", "-color_trc", "bt709", "-color_range", "tv"]
        let levels = Self.folder.appendingPathComponent("levels.mp4").path
        if !FileManager.default.fileExists(atPath: levels) {
            try MediaFactory.ffmpeg(["-f", "lavfi", "-i", "color=c=black:s=64x48:r=25:d=4,format=yuv420p,geq=lum='16+2*N':cb=128:cr=128",
                                     "-c:v", "libx264", "-crf", "1", "-bf", "2", "-x264-params", "b-adapt=0", "-g", "12", "-pix_fmt", "yuv420p"] + tags + [levels])
        }
        // A white frame every second (frames 0, 25, 50, 75) and a 40 ms 1 kHz beep starting with each.
        let flashes = Self.folder.appendingPathComponent("flashes.mov").path
        if !FileManager.default.fileExists(atPath: flashes) {
            try MediaFactory.ffmpeg(["-f", "lavfi", "-i", "color=c=black:s=64x48:r=25:d=4,format=yuv420p,geq=lum='if(eq(mod(N\\,25)\\,0)\\,235\\,16)':cb=128:cr=128",
                                     "-f", "lavfi", "-i", "aevalsrc=0.5*sin(2*PI*1000*t)*lt(mod(t\\,1)\\,0.04):s=48000:d=4",
                                     "-c:v", "libx264", "-crf", "1", "-g", "12", "-pix_fmt", "yuv420p"] + tags + ["-c:a", "pcm_s16le", flashes])
        }
        let path = Self.folder.appendingPathComponent(name).path
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    /// A project of one video track with these clips (YAML flow mappings).
    func project(_ name: String, clips: [String], segment: String = "") throws -> String {
        try project(name, """
            reel: 1
            output: { size: [64, 48], fps: 25\(segment), video: { codec: h264, crf: 0 }, audio: { codec: pcm } }
            media: { levels: levels.mp4, flashes: flashes.mov }
            video:
              - clips:
            """ + clips.map { "\n      - " + $0 }.joined())
    }

    @discardableResult
    func render(_ project: String, _ output: String, _ extra: [String] = []) throws -> String {
        let path = Self.folder.appendingPathComponent(output).path
        let run = try ReelCommand.run(["render", project, "-o", path, "--no-cache", "--progress", "none"] + extra)
        #expect(run.status == 0, "\(run.standardError)")
        return path
    }

    /// The luma of the top-left pixel of every frame of a rendered file (flat frames).
    func lumas(_ path: String) throws -> [Int] {
        let raw = Self.folder.appendingPathComponent("lumas.yuv").path
        try MediaFactory.ffmpeg(["-i", path, "-map", "0:v", "-f", "rawvideo", "-pix_fmt", "yuv420p", raw])
        let data = try Data(contentsOf: URL(fileURLWithPath: raw))
        let size = 64 * 48 * 3 / 2
        return stride(from: 0, to: data.count, by: size).map { Int(data[$0 + 64 * 24 + 32]) }
    }

    /// Mono samples of a rendered file's sound at 48 kHz.
    func samples(_ path: String) throws -> [Float] {
        let raw = Self.folder.appendingPathComponent("samples.f32").path
        try MediaFactory.ffmpeg(["-i", path, "-map", "0:a", "-ac", "1", "-ar", "48000", "-f", "f32le", raw])
        let data = try Data(contentsOf: URL(fileURLWithPath: raw))
        return data.withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }
    }

    @Test func aRampShowsTheSourceFrameAtTheIntegratedTimeOfEveryFrame() throws {
        let path = try project("ramp.yaml", clips: [
            "{ media: levels, from: 0s, to: 3s, speed: [{ at: 0s, value: 1 }, { at: 2s, value: 0.25 }] }",
        ])
        let levels = try lumas(try render(path, "ramp.mov"))
        // Source seconds by output frame m (τ = m/25): τ − 3τ²/16 up to 2 s, then 1.25 + (τ − 2)/4;
        // the source frame is the whole part of 25 × that: (400m − 3m²)/400, then (m + 75)/4.
        #expect(levels.count == 225)
        for (m, level) in levels.enumerated() {
            let n = m <= 50 ? (400 * m - 3 * m * m) / 400 : (m + 75) / 4
            #expect(level == 16 + 2 * n, "output frame \(m) shows level \(level), expected source frame \(n)")
        }
    }

    @Test func aReversedClipShowsItsFramesInReverseOrderAcrossGOPs() throws {
        let path = try project("reverse.yaml", clips: [
            "{ media: levels, from: 0.4s, to: 3.6s, reverse: true }",
            "{ media: levels, freeze: 1.2s, duration: 1s }",
            "{ media: levels, freeze: end, duration: 0.4s }",
        ])
        let levels = try lumas(try render(path, "reverse.mov"))
        #expect(levels.count == 80 + 25 + 10)
        // Source frames 89 down to 10 (seven GOPs of 12), then frame 30 held, then the last frame (99).
        let expected = (0..<80).map { 16 + 2 * (89 - $0) } + Array(repeating: 16 + 2 * 30, count: 25) + Array(repeating: 16 + 2 * 99, count: 10)
        let wrong = zip(levels, expected).enumerated().filter { $0.element.0 != $0.element.1 }
        #expect(wrong.isEmpty, "frames \(wrong.prefix(8).map { "\($0.offset): \($0.element.0) not \($0.element.1)" })")
    }

    @Test func reversedSoundIsTheSourceSamplesBackwardsAndAFreezeIsSilent() throws {
        let path = try project("reverse-sound.yaml", clips: [
            "{ media: flashes, from: 0.5s, to: 2.5s, reverse: true }",
            "{ media: flashes, freeze: 1s, duration: 1s }",
        ])
        let sound = try samples(try render(path, "reverse-sound.mov"))
        #expect(sound.count == 3 * 48000)
        // Forward, the beeps start at 1 s and 2 s of the source and last 40 ms: backwards, each
        // ends where it started, at timeline 2.5 − 1 = 1.5 s and 2.5 − 2 = 0.5 s.
        func loud(_ from: Double, _ to: Double) -> Float { sound[Int(from * 48000)..<Int(to * 48000)].map(abs).max() ?? 0 }
        #expect(loud(0.462, 0.498) > 0.4 && loud(1.462, 1.498) > 0.4)
        #expect(loud(0.502, 1.458) < 0.01 && loud(0, 0.458) < 0.01 && loud(1.502, 2) < 0.01)
        #expect(loud(2, 3) == 0) // the freeze frame
        // Each beep ends within a sample of its mirrored place: the last loud sample is just before 0.5 s.
        let lastLoud = (Int(0.45 * 48000)..<Int(0.55 * 48000)).last { abs(sound[$0]) > 0.05 } ?? 0
        #expect(abs(lastLoud - 24000) <= 2, "the first beep ends at sample \(lastLoud)")
    }

    @Test func underARampTheBeepsStartWithTheirFlashes() throws {
        let path = try project("sync.yaml", clips: [
            "{ media: flashes, from: 0s, to: 4s, speed: [{ at: 0s, value: 1.5, ease: ease-in }, { at: 2s, value: 0.5 }] }",
        ])
        let output = try render(path, "sync.mov")
        let levels = try lumas(output), sound = try samples(output)
        // The first output frame of each flash, and the first sample of each beep.
        let flashes = levels.indices.filter { levels[$0] > 128 && ($0 == 0 || levels[$0 - 1] <= 128) }
        let beeps = sound.indices.filter { abs(sound[$0]) > 0.05 && (max(0, $0 - 2400)..<$0).allSatisfy { abs(sound[$0]) <= 0.05 } }
        #expect(flashes.count == 4 && beeps.count == 4, "flashes at frames \(flashes), beeps at samples \(beeps)")
        // The flash lies between the frame before the one that shows it and that frame; the
        // beep must start there too, within one AAC frame (1024 samples).
        for (frame, sample) in zip(flashes, beeps) {
            let shown = frame * 48000 / 25, before = (frame - 1) * 48000 / 25
            #expect(sample > before - 1024 && sample <= shown + 1024, "flash at frame \(frame) (sample \(shown)), beep at sample \(sample)")
        }
    }

    @Test func segmentBoundariesInsideARampAndAReversalChangeNoByte() throws {
        let path = try project("jobs.yaml", clips: [
            "{ media: flashes, from: 0s, to: 2s, speed: [{ at: 0s, value: 2 }, { at: 1.5s, value: 0.5, ease: ease-in-out }] }",
            "{ media: levels, from: 0.5s, to: 3.5s, reverse: true }",
            "{ media: levels, freeze: 2s, duration: 0.6s }",
        ], segment: ", segment: 1s")
        let one = try Data(contentsOf: URL(fileURLWithPath: try render(path, "jobs1.mov", ["--jobs", "1"])))
        let two = try Data(contentsOf: URL(fileURLWithPath: try render(path, "jobs2.mov", ["--jobs", "2"])))
        #expect(!one.isEmpty && one == two)
    }

    @Test func validateReportsTimeEffectsThatCannotPlayAtTheirLines() throws {
        let path = try project("bad.yaml", clips: [
            "{ media: levels, from: 0s, to: 1s, speed: [{ at: 0s, value: 2 }, { at: 1s, value: 2 }] }",
            "{ media: levels, freeze: 1s, reverse: true, duration: 1s }",
        ])
        let run = try ReelCommand.run(["validate", path])
        #expect(run.status == 65)
        #expect(run.standardError.contains("bad.yaml:6:"), "\(run.standardError)")
        #expect(run.standardError.contains("the speed ramp reads 2s of source by its last keyframe"), "\(run.standardError)")
        #expect(run.standardError.contains("bad.yaml:7:") && run.standardError.contains("'reverse' does not apply"), "\(run.standardError)")
    }
}
