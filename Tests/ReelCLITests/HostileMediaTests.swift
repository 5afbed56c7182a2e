import Foundation
import TestSupport
import Testing

/// `reel validate` and `reel render` on hostile media (TestSupport/HostileMedia): each ends in
/// a clear error naming the file, with the README's exit status (65 invalid input, 1 a failure
/// while rendering), within bounded CPU time and memory, leaving no output and no temporary file;
/// media that are odd but usable (a 1x1 video, WebM named .mp4, mixed audio rates and
/// layouts) render correctly.
@Suite struct HostileMediaTests {
    /// Debug build on a shared 2-core machine; measured: every hostile case ends in < 0.5 s
    /// and < 110 MB (the table in docs/reliability.md). The bound is on reel's CPU time (user +
    /// sys), which other work on the machine does not stretch as it stretches the wall time.
    static let cpuLimit = 20.0
    static let memoryLimitKB = 400_000

    struct Outcome {
        var status: Int32
        var standardError: String
        var seconds: Double
        var cpuSeconds: Double
        var maxResidentKB: Int
    }

    /// A fresh folder with `project.yaml` using `media` (absolute path) and an empty `out/`.
    static func project(_ name: String, media: [String: String], clips: String, audio: String = "") throws -> URL {
        let folder = MediaFactory.directory.appendingPathComponent("hostile-cli/\(name)")
        try? FileManager.default.removeItem(at: folder)
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("out"), withIntermediateDirectories: true)
        let list = media.sorted { $0.key < $1.key }.map { "\($0.key): \"\($0.value)\"" }.joined(separator: ", ")
        try """
            reel: 1
            output: { size: [320, 180], fps: 25 }
            media: { \(list) }
            video:
              - clips:
            \(clips)
            \(audio)
            """.write(to: folder.appendingPathComponent("project.yaml"), atomically: true, encoding: .utf8)
        return folder
    }

    /// Runs reel once under /usr/bin/time (Debian's `time`, which scripts/test installs), for its
    /// CPU time and peak resident size.
    static func reel(_ arguments: [String], in folder: URL) throws -> Outcome {
        try #require(FileManager.default.isExecutableFile(atPath: "/usr/bin/time"),
                     "/usr/bin/time measures each reel's CPU time and memory here: install the Debian package time")
        let measure = folder.appendingPathComponent("time-\(arguments[0]).txt")
        let errors = folder.appendingPathComponent("stderr-\(arguments[0]).txt")
        _ = FileManager.default.createFile(atPath: errors.path, contents: nil)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/time")
        process.arguments = ["-f", "%M %U %S", "-o", measure.path, ReelCommand.executable.path] + arguments
        process.currentDirectoryURL = folder
        process.standardOutput = FileHandle.nullDevice
        process.standardError = try FileHandle(forWritingTo: errors)
        let start = Date()
        try process.run()
        process.waitUntilExit()
        let seconds = Date().timeIntervalSince(start)
        // The last line is "KB user sys" (a line before it says so when reel was killed by a signal).
        let measured = try #require((try String(contentsOf: measure, encoding: .utf8)).split(separator: "\n").last?
            .split(separator: " ").compactMap { Double($0) }, "no measure in \(measure.path)")
        try #require(measured.count == 3, "\(measure.path): \(measured)")
        return Outcome(status: process.terminationStatus, standardError: (try? String(contentsOf: errors, encoding: .utf8)) ?? "",
                       seconds: seconds, cpuSeconds: measured[1] + measured[2], maxResidentKB: Int(measured[0]))
    }

    /// Files in `out/` (hidden temporary files included).
    static func leftovers(_ folder: URL) -> [String] {
        (try? FileManager.default.contentsOfDirectory(atPath: folder.appendingPathComponent("out").path)) ?? []
    }

    /// Validate and render must both fail (render with `renderStatus`), naming the file.
    func expectRefused(_ name: String, media path: String, clip: String = "      - { media: m, fit: fill }",
                       validateStatus: Int32? = 65, renderStatus: Int32, mentioning detail: String,
                       sourceLocation: SourceLocation = #_sourceLocation) throws {
        let folder = try Self.project(name, media: ["m": path], clips: clip)
        let project = folder.appendingPathComponent("project.yaml").path
        let output = folder.appendingPathComponent("out/video.mp4").path
        var outcomes: [(String, Outcome)] = []
        let validate = try Self.reel(["validate", project], in: folder)
        outcomes.append(("validate", validate))
        if let validateStatus {
            #expect(validate.status == validateStatus, "\(name): validate exited \(validate.status)\n\(validate.standardError)", sourceLocation: sourceLocation)
            #expect(validate.standardError.contains(path), "\(name): validate does not name the file:\n\(validate.standardError)", sourceLocation: sourceLocation)
            #expect(validate.standardError.contains("project.yaml:3:"), "\(name): no place in the project:\n\(validate.standardError)", sourceLocation: sourceLocation)
            #expect(validate.standardError.contains(detail), "\(name): '\(detail)' missing:\n\(validate.standardError)", sourceLocation: sourceLocation)
        } else {
            #expect(validate.status == 0, "\(name): validate exited \(validate.status)\n\(validate.standardError)", sourceLocation: sourceLocation)
        }
        let render = try Self.reel(["render", project, "-o", output, "--progress", "none"], in: folder)
        outcomes.append(("render", render))
        #expect(render.status == renderStatus, "\(name): render exited \(render.status)\n\(render.standardError)", sourceLocation: sourceLocation)
        #expect(render.standardError.contains(path), "\(name): render does not name the file:\n\(render.standardError)", sourceLocation: sourceLocation)
        #expect(render.standardError.contains(detail), "\(name): '\(detail)' missing:\n\(render.standardError)", sourceLocation: sourceLocation)
        #expect(!render.standardError.contains("Fatal error") && !render.standardError.contains("crashed"), sourceLocation: sourceLocation)
        #expect(Self.leftovers(folder).isEmpty, "\(name): left behind \(Self.leftovers(folder))", sourceLocation: sourceLocation)
        report(name, outcomes, sourceLocation: sourceLocation)
    }

    func report(_ name: String, _ outcomes: [(String, Outcome)], sourceLocation: SourceLocation = #_sourceLocation) {
        for (command, o) in outcomes {
            #expect(o.cpuSeconds < Self.cpuLimit, "\(name): \(command) took \(o.cpuSeconds) s of CPU", sourceLocation: sourceLocation)
            #expect(o.maxResidentKB < Self.memoryLimitKB, "\(name): \(command) peaked at \(o.maxResidentKB) KB", sourceLocation: sourceLocation)
            let firstLine = o.standardError.split(separator: "\n").first.map(String.init) ?? ""
            print("hostile media | \(name) | \(command) | exit \(o.status) | \(String(format: "%.2f", o.seconds)) s (CPU \(String(format: "%.2f", o.cpuSeconds)) s) | \(o.maxResidentKB / 1024) MB | \(firstLine.prefix(160))")
        }
    }

    // MARK: Refused

    /// What validates must render: sound FFmpeg cannot decode is found by `validate`, at the
    /// clip that plays it; muted, the picture renders alone.
    @Test func soundThatDoesNotDecode() throws {
        let media = try HostileMedia.damagedVorbis()
        let broken = try Self.project("damaged-vorbis", media: ["m": media], clips: "      - { media: m }")
        for command in [["validate"], ["render", "-o", broken.appendingPathComponent("out/video.mp4").path, "--progress", "none"]] {
            let run = try Self.reel([command[0], broken.appendingPathComponent("project.yaml").path] + command.dropFirst(), in: broken)
            #expect(run.status == 65, "\(command[0]): \(run.standardError)")
            #expect(run.standardError.contains("project.yaml:6:9: error: the sound of 'm' (\(media)) cannot be decoded: stream 1: cannot open the vorbis decoder"),
                    "\(command[0]): \(run.standardError)")
            #expect(run.standardError.contains("hint: add 'mute: true'"), "\(run.standardError)")
        }
        #expect(Self.leftovers(broken).isEmpty)
        let folder = try Self.project("damaged-vorbis-muted", media: ["m": media], clips: "      - { media: m, mute: true }")
        let project = folder.appendingPathComponent("project.yaml").path
        #expect(try Self.reel(["validate", project], in: folder).status == 0)
        let render = try Self.reel(["render", project, "-o", folder.appendingPathComponent("out/video.mp4").path, "--progress", "none"], in: folder)
        #expect(render.status == 0, "\(render.standardError)")
    }

    @Test func zeroBytes() throws {
        try expectRefused("zero-bytes", media: try HostileMedia.empty(), renderStatus: 65, mentioning: "is empty (0 bytes)")
    }

    @Test(arguments: [0.01, 0.5, 0.9])
    func cutBeforeItsIndex(fraction: Double) throws {
        try expectRefused("cut-\(fraction)", media: try HostileMedia.truncated(at: fraction, faststart: false), renderStatus: 65,
                          mentioning: "has no index (moov atom)")
    }

    @Test func cutInsideItsIndex() throws {
        try expectRefused("cut-faststart-0.02", media: try HostileMedia.truncated(at: 0.02, faststart: true), renderStatus: 65,
                          mentioning: "is not a media file FFmpeg can read")
    }

    /// The index is whole, so nothing before rendering can tell: validation passes, and the
    /// render stops where the data ends, naming the file and the time (exit 1).
    @Test(arguments: [0.5, 0.95])
    func cutAfterItsIndex(fraction: Double) throws {
        try expectRefused("cut-faststart-\(fraction)", media: try HostileMedia.truncated(at: fraction, faststart: true), validateStatus: nil,
                          renderStatus: 1, mentioning: "the data ends early or is damaged")
    }

    @Test func randomBytesNamedMP4() throws {
        try expectRefused("random-bytes", media: try HostileMedia.randomBytes(), renderStatus: 65, mentioning: "is not a media file FFmpeg can read")
    }

    @Test func textFileNamedPNG() throws {
        try expectRefused("text-as-png", media: try HostileMedia.text(named: "notes.png"), clip: "      - { media: m, duration: 1s }",
                          renderStatus: 65, mentioning: "its png picture cannot be decoded")
    }

    @Test func pngDeclaringThirtyThousandSquare() throws {
        try expectRefused("png-30000", media: try HostileMedia.declaredPNG(width: 30000, height: 30000), clip: "      - { media: m, duration: 1s }",
                          renderStatus: 65, mentioning: "30000x30000 pixels, more than Reel decodes (at most 16384 pixels a side")
    }

    @Test func decompressionBomb() throws {
        try expectRefused("png-bomb", media: try HostileMedia.pngBomb(width: 30000, height: 30000), clip: "      - { media: m, duration: 1s }",
                          renderStatus: 65, mentioning: "30000x30000 pixels, more than Reel decodes")
    }

    /// The bomb as an overlay image: refused by the same check (and gdk-pixbuf never loads it).
    @Test func decompressionBombAsOverlay() throws {
        let bomb = try HostileMedia.pngBomb(width: 30000, height: 30000)
        let folder = try Self.project("png-bomb-overlay", media: ["m": bomb], clips: "      - { color: black, duration: 1s }",
                                      audio: "overlays:\n  - { image: m }")
        let project = folder.appendingPathComponent("project.yaml").path
        let validate = try Self.reel(["validate", project], in: folder)
        #expect(validate.status == 65 && validate.standardError.contains(bomb) && validate.standardError.contains("more than Reel decodes"),
                "\(validate.standardError)")
        let render = try Self.reel(["render", project, "-o", folder.appendingPathComponent("out/video.mp4").path, "--progress", "none"], in: folder)
        #expect(render.status == 65 && render.standardError.contains("more than Reel decodes"))
        #expect(Self.leftovers(folder).isEmpty)
        report("png-bomb-overlay", [("validate", validate), ("render", render)])
    }

    /// The index is fine, but no frame decodes: validation decodes the first one and refuses
    /// the file, so the render never starts.
    @Test func noDecodableFrame() throws {
        try expectRefused("garbled-frames", media: try HostileMedia.garbledFrames(), renderStatus: 65,
                          mentioning: "its video cannot be decoded")
    }

    @Test func unsupportedCodec() throws {
        try expectRefused("unknown-codec", media: try HostileMedia.unknownCodec(), renderStatus: 65,
                          mentioning: "uses codec 'none', which this FFmpeg build cannot decode")
    }

    // MARK: Odd but usable

    /// The output's pixels as RGB24, decoded by ffmpeg at `time` (seconds).
    static func rgb(_ path: String, at time: Double, width: Int, height: Int) throws -> [UInt8] {
        let raw = path + ".rgb"
        try MediaFactory.ffmpeg(["-ss", String(time), "-i", path, "-frames:v", "1", "-f", "rawvideo", "-pix_fmt", "rgb24", raw])
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: raw)))
        try? FileManager.default.removeItem(atPath: raw)
        #expect(bytes.count == width * height * 3)
        return bytes
    }

    func renders(_ name: String, media: [String: String], clips: String, audio: String = "") throws -> String {
        let folder = try Self.project(name, media: media, clips: clips, audio: audio)
        let project = folder.appendingPathComponent("project.yaml").path
        let output = folder.appendingPathComponent("out/video.mp4").path
        let validate = try Self.reel(["validate", project], in: folder)
        let render = try Self.reel(["render", project, "-o", output, "--progress", "none"], in: folder)
        #expect(validate.status == 0, "\(validate.standardError)")
        #expect(render.status == 0, "\(render.standardError)")
        #expect(Self.leftovers(folder) == ["video.mp4"])
        report(name, [("validate", validate), ("render", render)])
        return output
    }

    @Test func onePixelVideoFillsTheFrame() throws {
        let output = try renders("one-pixel", media: ["m": try HostileMedia.onePixel()], clips: "      - { media: m, fit: fill }")
        let frame = try Self.rgb(output, at: 1, width: 320, height: 180)
        for (x, y) in [(10, 10), (160, 90), (310, 170)] {
            let i = (y * 320 + x) * 3
            #expect(frame[i] > 200 && frame[i + 1] < 60 && frame[i + 2] < 60, "(\(x), \(y)) is \(frame[i..<(i + 3)])")
        }
    }

    @Test func webmNamedMP4IsReadByItsContent() throws {
        let source = try HostileMedia.webmNamedMP4()
        let output = try renders("webm-as-mp4", media: ["m": source], clips: "      - { media: m, fit: fill }")
        // The render shows the source: compare a frame, scaled to the same size, within coding noise.
        let rendered = try Self.rgb(output, at: 1, width: 320, height: 180)
        let scaled = source + ".320.mp4"
        try MediaFactory.ffmpeg(["-i", source, "-vf", "scale=320:180", "-c:v", "libx264", "-crf", "10", scaled])
        let original = try Self.rgb(scaled, at: 1, width: 320, height: 180)
        let difference = zip(rendered, original).reduce(0) { $0 + abs(Int($1.0) - Int($1.1)) } / max(1, rendered.count)
        #expect(difference < 12, "mean difference \(difference)")
    }

    /// 44.1 kHz 5.1 followed by 48 kHz mono: both resampled and mixed into 48 kHz stereo.
    @Test func mixedAudioRatesAndLayouts() throws {
        let output = try renders("mixed-audio", media: ["surround": try HostileMedia.surround44100(), "mono": try HostileMedia.mono48000()],
                                 clips: "      - { color: black, duration: 4s }",
                                 audio: "audio:\n  - clips:\n      - { media: surround }\n      - { media: mono }")
        let streams = try MediaFactory.ffprobe(output, ["-show_entries", "stream=codec_type,sample_rate,channels"])["streams"] as? [[String: Any]] ?? []
        let audio = streams.first { $0["codec_type"] as? String == "audio" }
        #expect(audio?["sample_rate"] as? String == "48000" && audio?["channels"] as? Int == 2)
        let raw = output + ".f32"
        try MediaFactory.ffmpeg(["-i", output, "-ac", "1", "-ar", "48000", "-f", "f32le", raw])
        let samples = try Data(contentsOf: URL(fileURLWithPath: raw)).withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }
        // Zero crossings a second: 880 for 440 Hz, 1760 for 880 Hz.
        func crossings(_ from: Double, _ to: Double) -> Double {
            let part = samples[Int(from * 48000)..<min(samples.count, Int(to * 48000))]
            return Double(zip(part, part.dropFirst()).filter { ($0 < 0) != ($1 < 0) }.count) / (to - from)
        }
        func rms(_ from: Double, _ to: Double) -> Float {
            let part = samples[Int(from * 48000)..<min(samples.count, Int(to * 48000))]
            return (part.reduce(0) { $0 + $1 * $1 } / Float(max(1, part.count))).squareRoot()
        }
        #expect(abs(crossings(0.2, 1.8) - 880) < 30, "\(crossings(0.2, 1.8))")
        #expect(abs(crossings(2.2, 3.8) - 1760) < 40, "\(crossings(2.2, 3.8))")
        #expect(rms(0.2, 1.8) > 0.02 && rms(2.2, 3.8) > 0.02, "\(rms(0.2, 1.8)) \(rms(2.2, 3.8))")
    }
}
