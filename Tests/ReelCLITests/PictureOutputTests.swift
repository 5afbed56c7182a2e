import Digest
import Foundation
import TestSupport
import Testing

/// The picture outputs: GIF (capped size and rate, one palette, looping), APNG (lossless,
/// looping), PNG and JPEG sequences (one file a frame from 0001, written whole or not at all);
/// each the same bytes for 1, 2 and 3 jobs, none with sound.
@Suite(.serialized) struct PictureOutputTests {
    let formats = OutputFormatTests()

    func path(_ name: String) -> String { formats.path(name) }

    /// The clip of `OutputFormatTests` at `size`, `fps`, 2 s with its sound, 0.5 s segments.
    func project(_ name: String, size: (Int, Int) = (160, 90), fps: Int = 25, output: String = "") throws -> String {
        let text = """
            reel: 1
            output:
              size: [\(size.0), \(size.1)]
              fps: \(fps)
              segment: 0.5s
            \(output.split(separator: "\n").map { "  " + $0 }.joined(separator: "\n"))
            media: { clip: \(try OutputFormatTests.clip.get()) }
            video:
              - clips:
                  - media: clip
                    duration: 2s
            """
        let file = path(name + ".yaml")
        try text.write(toFile: file, atomically: true, encoding: .utf8)
        return file
    }

    func stream(_ file: String) throws -> [String: Any] {
        let probe = try MediaFactory.ffprobe(file, ["-count_frames", "-show_entries",
                                                    "stream=codec_name,codec_type,width,height,r_frame_rate,nb_read_frames"])
        return try #require((probe["streams"] as? [[String: Any]])?.first)
    }

    func render(_ project: String, to out: String, jobs: Int = 1) throws {
        let run = try ReelCommand.run(["render", project, "-o", out, "--jobs", String(jobs), "--no-cache", "--progress", "none"])
        try #require(run.status == 0, "\(out): \(run.standardError)")
    }

    /// A 960x540 30 fps project becomes a 480x270 15 fps GIF: 30 frames, one global palette,
    /// looping forever, no sound; its pictures within 2 dB of ffmpeg's own two-pass GIF
    /// (palettegen + paletteuse with a Bayer dither) of the same video, and no larger than 1.25 times it.
    @Test func gifIsCappedPalettedAndLooping() throws {
        let project = try project("gif", size: (960, 540), fps: 30)
        let gif = try formats.renderWithJobs(project, to: "out.gif")
        let s = try stream(gif)
        #expect(s["codec_name"] as? String == "gif")
        #expect(s["width"] as? Int == 480 && s["height"] as? Int == 270, "\(s)")
        #expect(s["r_frame_rate"] as? String == "15/1", "\(s)")
        #expect(s["nb_read_frames"] as? String == "30", "\(s)")
        #expect(try formats.streams(gif) == ["video:gif"])
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: gif)))
        let netscape = try #require(bytes.firstRange(of: Array("NETSCAPE2.0".utf8)))
        #expect(Array(bytes[netscape.upperBound..<netscape.upperBound + 4]) == [3, 1, 0, 0], "loop count 0: forever")

        let video = path("gif-reference.mp4")
        let run = try ReelCommand.run(["render", project, "-o", video, "--no-cache", "--progress", "none"])
        try #require(run.status == 0, "\(run.standardError)")
        let ffmpegGIF = path("ffmpeg.gif")
        try MediaFactory.ffmpeg(["-i", video, "-vf", "fps=15,scale=480:270:flags=bicubic,split[a][b];[a]palettegen[p];[b][p]paletteuse=dither=bayer",
                                 ffmpegGIF])
        for frame in [0, 14, 29] {
            let reference = try StillCommandTests.rgb(video, frame: 2 * frame, size: (480, 270))
            let ours = StillCommandTests.psnr(try StillCommandTests.rgb(gif, frame: frame), reference)
            let theirs = StillCommandTests.psnr(try StillCommandTests.rgb(ffmpegGIF, frame: frame), reference)
            #expect(ours > 24 && ours > theirs - 2, "frame \(frame): Reel \(ours) dB, ffmpeg \(theirs) dB")
        }
        let size = try Data(contentsOf: URL(fileURLWithPath: gif)).count
        let ffmpegSize = try Data(contentsOf: URL(fileURLWithPath: ffmpegGIF)).count
        #expect(Double(size) <= 1.25 * Double(ffmpegSize), "Reel \(size) bytes, ffmpeg \(ffmpegSize) bytes")
    }

    /// A preset keeps a GIF a GIF (its own codec, no audio codec to pick) within its limits.
    @Test func aPresetKeepsAGIF() throws {
        let project = try project("gif-preset", size: (640, 360), fps: 25)
        let gif = path("preset.gif")
        let run = try ReelCommand.run(["render", project, "-o", gif, "--preset", "preview", "--no-cache", "--progress", "none"])
        try #require(run.status == 0, "\(run.standardError)")
        let s = try stream(gif)
        #expect(s["codec_name"] as? String == "gif" && s["width"] as? Int == 480 && s["r_frame_rate"] as? String == "15/1", "\(s)")
    }

    @Test func gifLimitsComeFromTheProject() throws {
        let project = try project("gif-limits", size: (320, 180), fps: 25, output: "gif: { max_width: 200, max_fps: 10 }")
        let gif = path("limits.gif")
        try render(project, to: gif)
        let s = try stream(gif)
        #expect(s["width"] as? Int == 200 && s["height"] as? Int == 112, "\(s)")
        #expect(s["r_frame_rate"] as? String == "10/1" && s["nb_read_frames"] as? String == "20", "\(s)")
    }

    /// APNG: every frame, lossless RGB (the very pixels of the frame as `reel frame` draws it),
    /// plays forever (acTL num_plays 0).
    @Test func apngHoldsEveryFrameAndLoops() throws {
        let project = try project("apng")
        let apng = try formats.renderWithJobs(project, to: "out.apng")
        let s = try stream(apng)
        #expect(s["codec_name"] as? String == "apng" && s["nb_read_frames"] as? String == "50", "\(s)")
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: apng)))
        let acTL = try #require(bytes.firstRange(of: Array("acTL".utf8)))
        #expect(Array(bytes[acTL.upperBound..<acTL.upperBound + 8]) == [0, 0, 0, 50, 0, 0, 0, 0], "50 frames, played forever")
        for frame in [0, 13, 49] {
            let still = path("apng-still-\(frame).png")
            let run = try ReelCommand.run(["frame", project, "--at", "\(frame)f", "-o", still])
            try #require(run.status == 0, "\(run.standardError)")
            let psnr = StillCommandTests.psnr(try StillCommandTests.rgb(apng, frame: frame), try StillCommandTests.rgb(still))
            #expect(psnr == .infinity, "frame \(frame): \(psnr) dB")
        }
    }

    /// A PNG sequence: frame n is file n + 1 of the pattern, each the pixels `reel frame` draws; the same
    /// bytes for any job count; files of the pattern past the end (an older, longer render) go,
    /// other files stay.
    @Test func pngSequenceWritesOneFileAFrame() throws {
        let project = try project("png-sequence")
        var digests: Set<String> = []
        for jobs in 1...3 {
            let folder = path("png-frames-\(jobs)")
            try? FileManager.default.removeItem(atPath: folder)
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            try Data([1]).write(to: URL(fileURLWithPath: folder + "/f0099.png"))
            try Data([2]).write(to: URL(fileURLWithPath: folder + "/notes.txt"))
            try render(project, to: folder + "/f%04d.png", jobs: jobs)
            let names = try FileManager.default.contentsOfDirectory(atPath: folder).sorted()
            #expect(names == (1...50).map { String(format: "f%04d.png", $0) } + ["notes.txt"], "\(names)")
            var hash = SHA256()
            for n in 1...50 { hash.update(try SHA256.hexDigest(ofFileAt: folder + String(format: "/f%04d.png", n))) }
            digests.insert(hash.hexDigest())
        }
        #expect(digests.count == 1, "the files depend on --jobs")
        for frame in [0, 12, 13, 49] {
            let still = path("png-still-\(frame).png")
            let run = try ReelCommand.run(["frame", project, "--at", "\(frame)f", "-o", still])
            try #require(run.status == 0, "\(run.standardError)")
            let file = path("png-frames-1") + String(format: "/f%04d.png", frame + 1)
            let psnr = StillCommandTests.psnr(try StillCommandTests.rgb(file), try StillCommandTests.rgb(still))
            #expect(psnr == .infinity, "frame \(frame): \(psnr) dB")
        }
    }

    @Test func jpegSequenceWritesOneFileAFrame() throws {
        let project = try project("jpg-sequence")
        let folder = path("jpg-frames")
        try? FileManager.default.removeItem(atPath: folder)
        try render(project, to: folder + "/%03d.jpg", jobs: 2)
        let names = try FileManager.default.contentsOfDirectory(atPath: folder).sorted()
        #expect(names == (1...50).map { String(format: "%03d.jpg", $0) }, "\(names)")
        #expect(try stream(folder + "/017.jpg")["codec_name"] as? String == "mjpeg")
        let png = path("jpg-reference.png")
        let run = try ReelCommand.run(["frame", project, "--at", "16f", "-o", png])
        try #require(run.status == 0, "\(run.standardError)")
        let psnr = StillCommandTests.psnr(try StillCommandTests.rgb(folder + "/017.jpg"), try StillCommandTests.rgb(png))
        #expect(psnr > 32, "\(psnr) dB")
    }

    @Test func misfitsAreErrorsAtTheirPlace() throws {
        let png = try project("misfit-png", output: "path: frames/out.png")
        let validate = try ReelCommand.run(["validate", png])
        #expect(validate.status == 65)
        #expect(formats.firstError(validate) == "\(png):6:9: error: a .png output is an image sequence, one file a frame, and its name has no frame number",
                "\(validate.standardError)")
        #expect(validate.standardError.contains("frames/out%04d.png"), "\(validate.standardError)")

        let unnumbered = try ReelCommand.run(["render", png, "-o", path("frames.jpg"), "--no-cache", "--progress", "none"])
        #expect(unnumbered.status == 64)
        #expect(unnumbered.standardError.contains("has no frame number; put %04d where the number goes: \(path("frames%04d.jpg"))"),
                "\(unnumbered.standardError)")

        let gif = try project("misfit-gif", output: "path: out.gif\naudio: { codec: aac }")
        let sound = try ReelCommand.run(["validate", gif])
        #expect(sound.status == 65)
        #expect(formats.firstError(sound) == "\(gif):7:19: error: a gif file holds pictures only, no aac audio", "\(sound.standardError)")
    }
}
