import Foundation
import TestSupport
import Testing

/// What a file is comes from what it holds, once: validate, graph and render agree on every
/// kind of file, so a project that validates renders what the graph says.
@Suite struct MediaFactsCommandTests {
    /// A folder of its own in the test media folder, holding the project files.
    static let folder: URL = {
        let url = URL(fileURLWithPath: MediaFactory.path("media-facts-cli"))
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }()

    func project(_ name: String, _ text: String) throws -> String {
        let path = Self.folder.appendingPathComponent(name).path
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    /// Validates, lists and renders `project` (lossless, 640x360); returns the listing and the
    /// output's path.
    func validateGraphRender(_ project: String) throws -> (listing: String, output: String) {
        let validate = try ReelCommand.run(["validate", project])
        #expect(validate.status == 0, "\(validate.standardError)")
        let graph = try ReelCommand.run(["graph", project])
        #expect(graph.status == 0, "\(graph.standardError)")
        let output = project.replacingOccurrences(of: ".yaml", with: ".mkv")
        let render = try ReelCommand.run(["render", project, "-o", output, "--progress", "none"])
        #expect(render.status == 0, "\(render.standardError)")
        return (graph.standardOutput, output)
    }

    /// The R′G′B′ of one pixel of the frame at `t`, from the ffmpeg CLI.
    func frameRGB(_ path: String, at t: String, x: Int, y: Int) throws -> [Int] {
        let png = path + ".\(t).\(x)x\(y).rgb"
        try MediaFactory.ffmpeg(["-ss", t, "-i", path, "-frames:v", "1", "-vf", "format=rgb24,crop=1:1:\(x):\(y)", "-f", "rawvideo", "-pix_fmt", "rgb24", png])
        return try Data(contentsOf: URL(fileURLWithPath: png)).map(Int.init)
    }

    @Test(arguments: ["photo-800x600.jpg", "photo-1024x768-progressive.jpg", "photo-1919x1081.png", "photo-1280x720.webp"])
    func ordinaryPhotosAreClips(_ name: String) throws {
        let photo = try StillFiles.photo(name)
        let path = try project("photo-\(name).yaml", """
            reel: 1
            output: { size: [640, 360], fps: 25, video: { crf: 0, preset: ultrafast } }
            media: { photo: \(photo) }
            video:
              - clips:
                  - media: photo
                    duration: 1s
                    fit: fill
            """)
        let (listing, output) = try validateGraphRender(path)
        #expect(listing.contains("still photo (\(name))"))
        // Stretched over the frame: testsrc2's leftmost bar is red, its rightmost cyan.
        let left = try frameRGB(output, at: "0.5", x: 10, y: 300), right = try frameRGB(output, at: "0.5", x: 630, y: 300)
        #expect(left[0] > 200 && left[1] < 40 && left[2] < 40, "\(left)")
        #expect(right[0] < 40 && right[1] > 200 && right[2] > 200, "\(right)")
    }

    @Test func aPNGWithAlphaIsAClipOverTheBackground() throws {
        let logo = try MediaFactory.file("half-red.png", ["-f", "lavfi", "-i", "color=c=red@0.5:s=800x600,format=rgba", "-frames:v", "1"])
        let path = try project("alpha.yaml", """
            reel: 1
            output: { size: [640, 360], fps: 25, background: "#0000ff", video: { crf: 0, preset: ultrafast } }
            media: { logo: \(logo) }
            video:
              - clips:
                  - media: logo
                    duration: 1s
                    fit: fill
            """)
        let (_, output) = try validateGraphRender(path)
        let rgb = try frameRGB(output, at: "0.5", x: 320, y: 180)
        // Half red over blue.
        #expect(abs(rgb[0] - 128) < 8 && rgb[1] < 8 && abs(rgb[2] - 127) < 8, "\(rgb)")
    }

    @Test func aTheoraOggIsAVideoAndAnAudioOnlyMatroskaIsSound() throws {
        let ogg = try MediaFactory.file("hello.ogg", ["-f", "lavfi", "-i", "testsrc2=s=320x240:r=25", "-f", "lavfi", "-i", "sine=f=440",
                                                      "-t", "2", "-c:v", "libtheora", "-c:a", "libvorbis"])
        let mkv = try MediaFactory.file("music.mkv", ["-f", "lavfi", "-i", "sine=f=660", "-t", "2", "-c:a", "flac"])
        let path = try project("ogg.yaml", """
            reel: 1
            output: { size: [640, 360], fps: 25, video: { crf: 0, preset: ultrafast } }
            media: { hello: \(ogg), music: \(mkv) }
            video:
              - clips:
                  - media: hello
            audio:
              - clips:
                  - media: music
            """)
        let (listing, output) = try validateGraphRender(path)
        #expect(listing.contains("hello (hello.ogg) source [0, 2)"))
        #expect(listing.contains("audio of video 1"))
        #expect(listing.contains("music (music.mkv) source [0, 2)"))
        let streams = try MediaFactory.ffprobe(output, ["-show_entries", "stream=codec_type"])["streams"] as? [[String: Any]] ?? []
        #expect(streams.compactMap { $0["codec_type"] as? String }.sorted() == ["audio", "video"])

        // The other way round: each in the place of the other is refused, with the reason.
        let swapped = try project("ogg-swapped.yaml", """
            reel: 1
            output: { size: [640, 360], fps: 25 }
            media: { hello: \(ogg), music: \(mkv) }
            video:
              - clips:
                  - media: music
            """)
        let refused = try ReelCommand.run(["validate", swapped])
        #expect(refused.status == 65)
        #expect(refused.standardError.contains("'music' is an audio file, which cannot be used here"))
        #expect(refused.standardError.contains("put sound on an audio track"))
    }

    @Test func anSVGClipIsCroppedInItsOwnPixels() throws {
        let svg = Self.folder.appendingPathComponent("square.svg").path
        try ##"<svg xmlns="http://www.w3.org/2000/svg" width="100" height="100"><rect width="50" height="100" fill="#00ff00"/><rect x="50" width="50" height="100" fill="#ff0000"/></svg>"##
            .write(toFile: svg, atomically: true, encoding: .utf8)
        let path = try project("svg-crop.yaml", """
            reel: 1
            output: { size: [640, 360], fps: 25, video: { crf: 0, preset: ultrafast } }
            media: { logo: \(svg) }
            video:
              - clips:
                  - media: logo
                    duration: 1s
                    crop: { left: 50 }
            """)
        let (listing, output) = try validateGraphRender(path)
        // 50 of the SVG's 100 pixels, not of the 640 of the frame.
        #expect(listing.contains("crop l 0.5 t 0 r 0 b 0"), "\(listing)")
        // What is left is the red half, fitted into the frame's height: red in the middle.
        let middle = try frameRGB(output, at: "0.5", x: 320, y: 180)
        #expect(middle[0] > 230 && middle[1] < 25, "\(middle)")
    }
}
