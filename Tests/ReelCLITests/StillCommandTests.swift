import Foundation
import TestSupport
import Testing

/// `reel frame`, `reel thumbnails` and `reel probe --frame` against what `reel render` and
/// the ffmpeg CLI make of the same project and media.
@Suite(.serialized) struct StillCommandTests {
    /// A 640×360 cut of the promo in lossless H.264 (x264 qp 0): a crossfade, a fading title
    /// and the logo watermark, so composited frames reach the file unchanged.
    static func losslessProject() throws -> String {
        try #require(promoMediaProblem == nil, "\(promoMediaProblem ?? "")")
        let media = repositoryRoot.appendingPathComponent("Examples/promo/media").path
        let yaml = """
        reel: 1
        output:
          size: [640, 360]
          fps: 30
          container: mkv
          video: { codec: h264, crf: 0, preset: ultrafast }
          audio: { codec: flac }
        media:
          intro: \(media)/A.mp4
          broll: \(media)/B.mp4
          logo: \(media)/logo.png
        video:
          - clips:
              - { media: intro, from: 1s, to: 3s }
              - { transition: crossfade, duration: 1s }
              - { media: broll, from: 0s, duration: 2s, fit: cover }
        overlays:
          - text: Still frames
            at: 0.5s
            duration: 2s
            position: ["50%", "80%"]
            style: { font: DejaVu Sans, weight: bold, size: 40, color: "#ffffff" }
            fade_in: 0.5s
          - image: logo
            watermark: { corner: bottom-right, margin: 12 }
            opacity: 0.7
        """
        let path = MediaFactory.path("stills-lossless.yaml")
        try yaml.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    /// Decodes `path` (a video, or a PNG) to packed rgb24 with the same libswscale settings as
    /// Reel's own YUV → RGB conversion; `frame` picks a video frame by number.
    static func rgb(_ path: String, frame: Int? = nil, size: (Int, Int)? = nil) throws -> [UInt8] {
        let raw = MediaFactory.path("decoded-\(UUID().uuidString).rgb")
        defer { try? FileManager.default.removeItem(atPath: raw) }
        var filters: [String] = []
        if let frame { filters.append("select=eq(n\\,\(frame))") }
        let scale = size.map { "\($0.0):\($0.1):" } ?? ""
        filters.append("scale=\(scale)flags=bicubic+bitexact+accurate_rnd+full_chroma_int+full_chroma_inp:out_range=full")
        try MediaFactory.ffmpeg(["-i", path, "-vf", filters.joined(separator: ","), "-frames:v", "1", "-f", "rawvideo", "-pix_fmt", "rgb24", raw])
        return [UInt8](try Data(contentsOf: URL(fileURLWithPath: raw)))
    }

    /// Peak signal-to-noise ratio of two pictures of the same size, in dB.
    static func psnr(_ a: [UInt8], _ b: [UInt8]) -> Double {
        precondition(a.count == b.count && !a.isEmpty)
        let squared = zip(a, b).reduce(0.0) { sum, p in let d = Double(p.0) - Double(p.1); return sum + d * d }
        return squared == 0 ? .infinity : 10 * log10(255 * 255 / (squared / Double(a.count)))
    }

    static func pngSize(_ path: String) throws -> (Int, Int) {
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        #expect(Array(bytes.prefix(8)) == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        func word(_ at: Int) -> Int { bytes[at..<at + 4].reduce(0) { $0 << 8 | Int($1) } }
        return (word(16), word(20))
    }

    /// A clip's anchor moves like an overlay's: a half-size red clip whose anchor goes from its
    /// top-left corner to its bottom-right corner while its position stays at the frame's
    /// centre sits in the bottom-right quarter at 0 s, centred at 1 s and in the top-left
    /// quarter at 2 s (pixels of `reel frame` checked in each quarter).
    @Test func aClipAnchorAnimates() throws {
        let yaml = """
        reel: 1
        output: { size: [320, 180], fps: 25 }
        video:
          - clips:
              - color: "#ff0000"
                duration: 3s
                transform:
                  scale: 0.5
                  anchor: [{ at: 0, value: [0, 0] }, { at: 2s, value: [1, 1] }]
        """
        let project = MediaFactory.path("anchor-animated.yaml")
        try yaml.write(toFile: project, atomically: true, encoding: .utf8)
        func frame(at time: String) throws -> [UInt8] {
            let png = MediaFactory.path("anchor-\(time).png")
            let run = try ReelCommand.run(["frame", project, "--at", time, "-o", png])
            #expect(run.status == 0, "\(run.standardError)")
            return try Self.rgb(png)
        }
        func isRed(_ pixels: [UInt8], _ x: Int, _ y: Int) -> Bool { pixels[(y * 320 + x) * 3] > 200 }
        /// Red or not at the centre of each quarter: top-left, top-right, bottom-left, bottom-right.
        func quarters(_ pixels: [UInt8]) -> [Bool] { [(80, 45), (240, 45), (80, 135), (240, 135)].map { isRed(pixels, $0, $1) } }
        #expect(quarters(try frame(at: "0s")) == [false, false, false, true])
        #expect(quarters(try frame(at: "2s")) == [true, false, false, false])
        // Centred at 1 s: the red box spans x 80..240, y 45..135.
        let middle = try frame(at: "1s")
        #expect(isRed(middle, 160, 90) && isRed(middle, 85, 50) && isRed(middle, 235, 130))
        #expect(!isRed(middle, 75, 90) && !isRed(middle, 245, 90) && !isRed(middle, 160, 40) && !isRed(middle, 160, 140))
        let graph = try ReelCommand.run(["graph", project])
        #expect(graph.standardOutput.contains("anchor ("), "\(graph.standardOutput)")
    }

    @Test func framesMatchTheLosslessRenderPixelForPixel() throws {
        let project = try Self.losslessProject()
        let video = MediaFactory.path("stills-lossless.mkv")
        let render = try ReelCommand.run(["render", project, "-o", video, "--progress", "none"])
        try #require(render.status == 0, "\(render.standardError)")
        // In the crossfade, in the title's fade-in, on the last frame, asked out of order.
        for (at, n) in [("1.5s", 45), ("0.75s", 22), ("89f", 89), ("0s", 0)] {
            let png = MediaFactory.path("stills-frame-\(n).png")
            let run = try ReelCommand.run(["frame", project, "--at", at, "-o", png])
            try #require(run.status == 0, "\(run.standardError)")
            #expect(run.standardOutput.contains("frame \(n) at"), "\(run.standardOutput)")
            let ours = try Self.rgb(png), rendered = try Self.rgb(video, frame: n)
            #expect(ours.count == 640 * 360 * 3)
            #expect(ours == rendered, "frame \(n): PSNR \(Self.psnr(ours, rendered)) dB")
        }
    }

    @Test func framesMatchTheLossyPreviewWithinCodecTolerance() throws {
        try #require(promoMediaProblem == nil, "\(promoMediaProblem ?? "")")
        let video = MediaFactory.path("stills-promo-preview.mp4")
        let render = try ReelCommand.run(["render", "Examples/promo/project.yaml", "--preset", "preview", "-o", video, "--progress", "none"])
        try #require(render.status == 0, "\(render.standardError)")
        // Preview is 15 fps: 9.5 s is frame 142 (the crossfade), 3.5 s frame 52 (the title).
        for (at, n) in [("9.5s", 142), ("3.5s", 52)] {
            let png = MediaFactory.path("stills-preview-\(n).png")
            let run = try ReelCommand.run(["frame", "Examples/promo/project.yaml", "--preset", "preview", "--at", at, "-o", png])
            try #require(run.status == 0, "\(run.standardError)")
            #expect(try Self.pngSize(png) == (640, 360))
            let psnr = Self.psnr(try Self.rgb(png), try Self.rgb(video, frame: n))
            #expect(psnr > 32, "frame \(n): \(psnr) dB against the encoded preview")
        }
    }

    @Test func sizeScalesTheFrameKeepingItsAspectRatio() throws {
        let project = try Self.losslessProject()
        for (size, expected) in [("320x", (320, 180)), ("x90", (160, 90)), ("100x100", (100, 56))] {
            let png = MediaFactory.path("stills-size-\(size).png")
            let run = try ReelCommand.run(["frame", project, "--at", "1s", "--size", size, "-o", png])
            try #require(run.status == 0, "\(run.standardError)")
            #expect(try Self.pngSize(png) == expected, "--size \(size)")
        }
        // The same frame at full size, scaled down by ffmpeg, looks the same.
        let full = MediaFactory.path("stills-size-full.png")
        _ = try ReelCommand.run(["frame", project, "--at", "1s", "-o", full])
        let psnr = Self.psnr(try Self.rgb(MediaFactory.path("stills-size-320x.png")), try Self.rgb(full, size: (320, 180)))
        #expect(psnr > 30, "\(psnr) dB")
    }

    @Test func thumbnailsWriteOnePNGPerFrame() throws {
        let project = try Self.losslessProject()
        let folder = MediaFactory.path("stills-thumbnails")
        try? FileManager.default.removeItem(atPath: folder)
        let run = try ReelCommand.run(["thumbnails", project, "--every", "1s", "--size", "160x", "-o", folder])
        try #require(run.status == 0, "\(run.standardError)")
        let files = try FileManager.default.contentsOfDirectory(atPath: folder).sorted()
        #expect(files == ["frame-0.png", "frame-30.png", "frame-60.png"])
        #expect(run.standardOutput.contains("frame-30.png  00:00:01.000  #30"))
        // Each thumbnail is `reel frame` at that time, scaled.
        let single = MediaFactory.path("stills-single-60.png")
        _ = try ReelCommand.run(["frame", project, "--at", "2s", "--size", "160x", "-o", single])
        #expect(try Data(contentsOf: URL(fileURLWithPath: single)) == Data(contentsOf: URL(fileURLWithPath: folder + "/frame-60.png")))
    }

    @Test func theContactSheetLaysOutTheFramesWithTheirTimecodes() throws {
        let project = try Self.losslessProject()
        let sheet = MediaFactory.path("stills-sheet.png")
        let run = try ReelCommand.run(["thumbnails", project, "--count", "6", "--columns", "3", "--size", "160x", "--sheet", sheet])
        try #require(run.status == 0, "\(run.standardError)")
        #expect(run.standardOutput.contains("6 frames of 160x90"))
        // 3 columns of 160 px with 16 px gaps; a title line (40 px) and 2 rows of 90 px + 29 px captions.
        #expect(try Self.pngSize(sheet) == (3 * 160 + 4 * 16, 40 + 2 * (90 + 29) + 3 * 16))
        // The middle of each sixth of 3 s: frames 7, 22, 37, 52, 67, 82. Tile 4 (row 1, column 1)
        // is frame 67 scaled down.
        let pixels = try Self.rgb(sheet), width = 3 * 160 + 4 * 16
        let tile = try Self.rgb(try { () throws -> String in
            let png = MediaFactory.path("stills-sheet-tile.png")
            _ = try ReelCommand.run(["frame", project, "--at", "67f", "--size", "160x", "-o", png])
            return png
        }())
        let originX = 16 + 176, originY = 40 + 16 + 90 + 29 + 16
        var differing = 0
        for y in 0..<90 { for x in 0..<160 { for c in 0..<3 where pixels[((originY + y) * width + originX + x) * 3 + c] != tile[(y * 160 + x) * 3 + c] { differing += 1 } } }
        #expect(differing == 0, "\(differing) samples of tile 4 differ from frame 67")
        // A caption under each tile: light text pixels on the dark background.
        let captionRow = originY + 90 + 10
        #expect((originX..<originX + 160).contains { pixels[(captionRow * width + $0) * 3] > 128 })
        let again = MediaFactory.path("stills-sheet-again.png")
        _ = try ReelCommand.run(["thumbnails", project, "--count", "6", "--columns", "3", "--size", "160x", "--sheet", again])
        #expect(try Data(contentsOf: URL(fileURLWithPath: sheet)) == Data(contentsOf: URL(fileURLWithPath: again)))
    }

    @Test func probeSavesAnUprightFrameOfAMediaFile() throws {
        let upright = try MediaFactory.file("stills-upright.mp4", ["-f", "lavfi", "-i", "testsrc2=size=320x180:rate=30:duration=2",
                                                                  "-c:v", "libx264", "-pix_fmt", "yuv420p"])
        let clip = try MediaFactory.file("stills-rotated.mp4", ["-i", upright, "-c", "copy", "-metadata:s:v:0", "rotate=90"])
        let png = MediaFactory.path("stills-probe.png")
        let run = try ReelCommand.run(["probe", clip, "--frame", "1s", "-o", png])
        try #require(run.status == 0, "\(run.standardError)")
        #expect(try Self.pngSize(png) == (180, 320))
        // ffmpeg's autorotated frame at 1 s (an untagged SD file: BT.601), converted as Reel converts.
        let ours = try Self.rgb(png), ffmpeg = try Self.rgb(clip, frame: 30)
        #expect(ours == ffmpeg, "\(Self.psnr(ours, ffmpeg)) dB")
    }

    @Test(arguments: [
        (["frame", "Examples/promo/project.yaml", "--at", "25s"], Int32(64), "--at '25s' is outside the timeline, which is 00:00:20.000 long"),
        (["frame", "Examples/promo/project.yaml", "--at", "soon"], 64, "--at 'soon': 'soon' is not a time"),
        (["frame", "Examples/promo/project.yaml", "--at", "1s", "--size", "wide"], 64, "The value 'wide' is invalid for '--size <size>': write WIDTHx, xHEIGHT or WIDTHxHEIGHT"),
        (["thumbnails", "Examples/promo/project.yaml", "--every", "1s", "--count", "3"], 64, "give either --every or --count"),
        (["probe", "Examples/promo/media/A.mp4", "--frame", "1s"], 64, "--frame needs -o FILE.png"),
        (["probe", "Examples/promo/media/music.mp3", "--frame", "1s", "-o", "/tmp/never.png"], 65, "has no picture to save"),
        (["frame", "Examples/promo/project.yaml", "--at", "1s", "-o", "/dev/null/f.png"], 73, "/dev/null/f.png: cannot make the folder /dev/null: Not a directory"),
    ])
    func mistakesAreReportedWithTheirExitStatus(arguments: [String], status: Int32, message: String) throws {
        try #require(promoMediaProblem == nil, "\(promoMediaProblem ?? "")")
        let run = try ReelCommand.run(arguments)
        #expect(run.status == status, "\(run.standardError)")
        #expect(run.standardError.contains(message), "\(run.standardError)")
        #expect(!FileManager.default.fileExists(atPath: "/tmp/never.png"))
    }
}
