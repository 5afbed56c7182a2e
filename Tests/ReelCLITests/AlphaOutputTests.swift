import Digest
import Foundation
import TestSupport
import Testing

/// Outputs with a transparent background keep an alpha channel end to end: anti-aliased edges
/// of a rotated layer and of text come out in their own colour with partial alpha (no dark
/// fringe), ProRes 4444, VP9 (WebM, Matroska) and APNG decode to the alpha of the PNG render,
/// segmented renders are the same bytes for any `--jobs`, and outputs that cannot carry alpha
/// are errors at the project's line before the first frame.
@Suite(.serialized) struct AlphaOutputTests {
    static let folder: URL = {
        let url = URL(fileURLWithPath: MediaFactory.path("alpha-outputs"))
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }()

    func path(_ name: String) -> String { Self.folder.appendingPathComponent(name).path }

    static let width = 400, height = 240
    /// The orange layer: the whole frame scaled by 0.4 and turned 20° clockwise about the centre.
    static let scale = 0.4, rotation = 20.0
    static let orange: (Int, Int, Int) = (255, 128, 0)

    /// A 1.5 s project, 10 fps in 0.5 s segments: the orange layer, and white text in the top
    /// left corner (clear of the layer); `output` lines added (indented by 2).
    func project(_ name: String, background: String = "transparent", output: String = "") throws -> String {
        let text = """
            reel: 1
            output:
              size: [\(Self.width), \(Self.height)]
              fps: 10
              background: "\(background)"
              segment: 0.5s
            \(output.split(separator: "\n").map { "  " + $0 }.joined(separator: "\n"))
            video:
              - clips:
                  - color: "#ff8000"
                    duration: 1.5s
                    transform: { rotation: \(Self.rotation), scale: \(Self.scale) }
            overlays:
              - text: Reel
                position: [10, 10]
                anchor: [0, 0]
                style: { font: DejaVu Sans, weight: bold, size: 36, color: white }
            """
        let file = path(name + ".yaml")
        try text.write(toFile: file, atomically: true, encoding: .utf8)
        return file
    }

    func render(_ project: String, to out: String, jobs: Int = 1) throws {
        let run = try ReelCommand.run(["render", project, "-o", out, "--jobs", String(jobs), "--no-cache", "--progress", "none"])
        try #require(run.status == 0, "\(out): \(run.standardError)")
    }

    /// Frame `frame` of `file` as straight R, G, B, A bytes (VP9 through libvpx, which decodes its alpha).
    static func rgba(_ file: String, frame: Int = 0) throws -> [UInt8] {
        let raw = MediaFactory.path("decoded-\(UUID().uuidString).rgba")
        defer { try? FileManager.default.removeItem(atPath: raw) }
        let decoder = file.hasSuffix(".webm") || file.hasSuffix(".mkv") ? ["-c:v", "libvpx-vp9"] : []
        try MediaFactory.ffmpeg(decoder + ["-i", file, "-vf", "select=eq(n\\,\(frame))", "-frames:v", "1", "-f", "rawvideo", "-pix_fmt", "rgba", raw])
        return [UInt8](try Data(contentsOf: URL(fileURLWithPath: raw)))
    }

    /// The orange layer's alpha at pixel (x, y) by its geometry, independently of Reel: each of
    /// the rectangle's two axes covers the pixel by its centre's distance inside that edge plus a
    /// half pixel, clamped to 0…1 (an anti-aliased edge one pixel wide), and alpha is their product.
    static func referenceAlpha(x: Int, y: Int) -> Double {
        let theta = rotation * .pi / 180
        let dx = Double(x) + 0.5 - Double(width) / 2, dy = Double(y) + 0.5 - Double(height) / 2
        let u = dx * cos(theta) + dy * sin(theta), v = -dx * sin(theta) + dy * cos(theta)
        let cu = min(max(scale * Double(width) / 2 - abs(u) + 0.5, 0), 1)
        let cv = min(max(scale * Double(height) / 2 - abs(v) + 0.5, 0), 1)
        return 255 * cu * cv
    }

    /// (a) The edges against their reference: the rotated layer's alpha within 3 levels of its
    /// geometry everywhere right of the text (0 outside, 255 inside), and every pixel with some
    /// alpha (48 or more, where 8-bit premultiplied colour is exact to a few levels) orange, not
    /// darker; the text's alpha is what the same text shows over black in an opaque render, and
    /// its edges are white.
    @Test func edgesKeepTheirColourWithPartialAlpha() throws {
        let project = try project("edges")
        try render(project, to: path("edges/f%04d.png"))
        let png = path("edges/f0001.png")
        let probe = try MediaFactory.ffprobe(png, ["-show_entries", "stream=pix_fmt"])
        #expect((probe["streams"] as? [[String: Any]])?.first?["pix_fmt"] as? String == "rgba")
        let pixels = try Self.rgba(png)
        try #require(pixels.count == Self.width * Self.height * 4)
        func pixel(_ x: Int, _ y: Int) -> [Int] { (0..<4).map { Int(pixels[(y * Self.width + x) * 4 + $0]) } }

        var edges = 0
        for y in 0..<Self.height {
            for x in 100..<Self.width {
                let p = pixel(x, y), reference = Self.referenceAlpha(x: x, y: y)
                if reference == 0 { #expect(p[3] == 0, "(\(x), \(y)) outside: \(p)") }
                if reference == 255 { #expect(p[3] == 255, "(\(x), \(y)) inside: \(p)") }
                #expect(abs(Double(p[3]) - reference) <= 3, "(\(x), \(y)): alpha \(p[3]), reference \(reference)")
                guard p[3] >= 48 else { continue }
                if p[3] < 255 { edges += 1 }
                let o = Self.orange
                #expect(abs(p[0] - o.0) <= 4 && abs(p[1] - o.1) <= 4 && abs(p[2] - o.2) <= 4, "(\(x), \(y)) alpha \(p[3]): \(p)")
            }
        }
        #expect(edges > 300, "partly covered edge pixels: \(edges)")

        let opaque = try self.project("edges-opaque", background: "#000000")
        try render(opaque, to: path("edges-opaque/f%04d.png"))
        let overBlack = try Self.rgba(path("edges-opaque/f0001.png"))
        var textEdges = 0
        for y in 0..<60 {
            for x in 0..<100 {
                let p = pixel(x, y), grey = Int(overBlack[(y * Self.width + x) * 4])
                #expect(abs(p[3] - grey) <= 3, "text (\(x), \(y)): alpha \(p[3]), over black \(grey)")
                guard p[3] >= 48 else { continue }
                if p[3] < 255 { textEdges += 1 }
                #expect(p[0] >= 250 && p[1] >= 250 && p[2] >= 250, "text (\(x), \(y)) alpha \(p[3]): \(p)")
            }
        }
        #expect(textEdges > 20, "partly covered text pixels: \(textEdges)")
    }

    static let alphaFiles: [(String, String)] = [("mov", "prores"), ("webm", "vp9"), ("mkv", "vp9"), ("apng", "apng")]

    /// (b) and (c): each video output with alpha decodes to the PNG render's alpha within its
    /// codec's tolerance (ProRes 4444 and APNG exactly; VP9 lossy), with the colour where the
    /// picture is mostly there; and it is the same bytes rendered with 1 and 2 jobs (three
    /// segments, joined by copying packets with VP9's alpha side data).
    @Test(arguments: alphaFiles)
    func videoOutputsKeepTheAlphaOfThePNGs(ext: String, codec: String) throws {
        let project = try project("files-\(ext)")
        try render(project, to: path("files-\(ext)-png/f%04d.png"))
        let out = path("out.\(ext)"), again = path("out-jobs2.\(ext)")
        try render(project, to: out, jobs: 1)
        try render(project, to: again, jobs: 2)
        #expect(try SHA256.hexDigest(ofFileAt: out) == SHA256.hexDigest(ofFileAt: again), "\(ext): the bytes depend on --jobs")
        let probe = try MediaFactory.ffprobe(out, ["-show_entries", "stream=codec_name,profile,pix_fmt:stream_tags=alpha_mode"])
        let stream = try #require((probe["streams"] as? [[String: Any]])?.first)
        #expect(stream["codec_name"] as? String == codec, "\(stream)")
        switch codec {
        case "prores": #expect(stream["profile"] as? String == "4444" && (stream["pix_fmt"] as? String)?.hasPrefix("yuva") == true, "\(stream)")
        case "vp9": #expect((stream["tags"] as? [String: Any])?["alpha_mode"] as? String == "1", "\(stream)")
        default: #expect(stream["pix_fmt"] as? String == "rgba", "\(stream)")
        }
        let lossy = codec == "vp9"
        for frame in [0, 7, 14] { // one in each segment
            let reference = try Self.rgba(path("files-\(ext)-png/f\(String(format: "%04d", frame + 1)).png"))
            let decoded = try Self.rgba(out, frame: frame)
            try #require(decoded.count == reference.count)
            var alphaErrors: [Int] = [], colourErrors: [Int] = []
            for i in stride(from: 0, to: reference.count, by: 4) {
                alphaErrors.append(abs(Int(decoded[i + 3]) - Int(reference[i + 3])))
                guard reference[i + 3] > 128 else { continue }
                for c in 0..<3 { colourErrors.append(abs(Int(decoded[i + c]) - Int(reference[i + c]))) }
            }
            let mean = { (e: [Int]) in Double(e.reduce(0, +)) / Double(e.count) }
            #expect(alphaErrors.max()! <= (lossy ? 24 : 1) && mean(alphaErrors) <= (lossy ? 0.5 : 0.01),
                    "\(ext) frame \(frame) alpha: max \(alphaErrors.max()!), mean \(mean(alphaErrors))")
            #expect(mean(colourErrors) <= (lossy ? 3 : 0.1), "\(ext) frame \(frame) colour: mean \(mean(colourErrors)), max \(colourErrors.max()!)")
        }
    }

    /// (e) A background that is partly transparent keeps its colour and alpha where nothing covers it.
    @Test func aSemiTransparentBackgroundKeepsItsAlpha() throws {
        let project = try project("half", background: "#20406080")
        try render(project, to: path("half/f%04d.png"))
        let pixels = try Self.rgba(path("half/f0001.png"))
        for (x, y) in [(Self.width - 1, Self.height - 1), (Self.width - 1, 0), (0, Self.height - 1), (150, 20)] {
            let p = (0..<4).map { Int(pixels[(y * Self.width + x) * 4 + $0]) }
            // 8-bit premultiplied colour at half alpha is exact to about 2 levels, doubled by unpremultiplying.
            #expect(abs(p[0] - 0x20) <= 4 && abs(p[1] - 0x40) <= 4 && abs(p[2] - 0x60) <= 4 && p[3] == 0x80, "(\(x), \(y)): \(p)")
        }
        let centre = (0..<4).map { Int(pixels[(Self.height / 2 * Self.width + Self.width / 2) * 4 + $0]) }
        #expect(abs(centre[0] - 255) <= 2 && abs(centre[1] - 128) <= 2 && centre[2] <= 2 && centre[3] == 255, "\(centre)")
    }

    /// A problem's first line: `file:line:col: error: message`.
    func firstError(_ run: ReelRun) -> String { OutputFormatTests().firstError(run) }

    /// (d) An output that cannot carry alpha is an error at the background's line (or the codec's,
    /// when one is given), from `reel validate` and from `reel render` before any frame.
    @Test func outputsWithoutAlphaAreErrorsAtTheirPlace() throws {
        let mp4 = try project("no-alpha-mp4", output: "path: out.mp4")
        let validate = try ReelCommand.run(["validate", mp4])
        #expect(validate.status == 65)
        #expect(firstError(validate) == "\(mp4):5:15: error: a transparent background needs an output that keeps alpha, and an mp4 file cannot",
                "\(validate.standardError)")
        #expect(validate.standardError.contains("hint: write .mov (ProRes 4444), .webm or .mkv (VP9), a .png sequence (frames/%04d.png) or .apng"),
                "\(validate.standardError)")

        let semi = try project("no-alpha-gif", background: "#00000080")
        let gif = path("no-alpha.gif")
        let render = try ReelCommand.run(["render", semi, "-o", gif, "--no-cache", "--progress", "none"])
        #expect(render.status == 65)
        #expect(firstError(render) == "\(semi):5:15: error: a transparent background (#00000080) needs an output that keeps alpha, and a gif file cannot",
                "\(render.standardError)")
        #expect(!FileManager.default.fileExists(atPath: gif))

        let h264 = try project("no-alpha-h264", output: "path: out.mov\nvideo: { codec: h264 }")
        let codec = try ReelCommand.run(["validate", h264])
        #expect(codec.status == 65)
        #expect(firstError(codec) == "\(h264):8:19: error: h264 video has no alpha channel for the transparent background (transparent)",
                "\(codec.standardError)")
        #expect(codec.standardError.contains("hint: use prores in a mov file, or leave the codec out"), "\(codec.standardError)")

        let profile = try project("no-alpha-profile", output: "path: out.mov\nvideo: { codec: prores, preset: hq, pixel_format: yuv422p10le }")
        let profiles = try ReelCommand.run(["validate", profile])
        #expect(profiles.status == 65)
        #expect(profiles.standardError.contains("\(profile):8:53: error: pixel format yuv422p10le cannot keep the transparent background's alpha"),
                "\(profiles.standardError)")
        #expect(profiles.standardError.contains("\(profile):8:35: error: ProRes profile hq has no alpha channel for the transparent background"),
                "\(profiles.standardError)")
    }
}
