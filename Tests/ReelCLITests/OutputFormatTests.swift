import Digest
import Foundation
import TestSupport
import Testing

/// Outputs by extension: the container follows the name, codecs not given are the container's,
/// audio-only containers and projects write audio alone, misfits are errors before the first
/// frame with their place in the project; every format is the same bytes for 1, 2 and 3 jobs.
@Suite(.serialized) struct OutputFormatTests {
    static let folder: URL = {
        let url = URL(fileURLWithPath: MediaFactory.path("output-formats"))
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }()

    func path(_ name: String) -> String { Self.folder.appendingPathComponent(name).path }

    static let clip: Result<String, any Error> = Result {
        try MediaFactory.file("output-formats-clip.mkv", ["-f", "lavfi", "-i", "testsrc2=s=320x180:r=25:d=3",
                                                          "-f", "lavfi", "-i", "sine=f=440:d=3:sample_rate=48000",
                                                          "-c:v", "libx264", "-crf", "10", "-c:a", "flac"])
    }

    /// 2 s of a clip with its sound at 160x90, 25 fps, in 0.5 s segments (so every render joins
    /// four), with `output` lines added (indented by 2).
    func project(_ name: String, output: String = "", video: Bool = true) throws -> String {
        let tracks = video ? """
            video:
              - clips:
                  - media: clip
                    duration: 2s
            """ : """
            audio:
              - clips:
                  - media: clip
                    duration: 2s
            """
        let text = """
            reel: 1
            output:
              size: [160, 90]
              fps: 25
              segment: 0.5s
            \(output.split(separator: "\n").map { "  " + $0 }.joined(separator: "\n"))
            media: { clip: \(try Self.clip.get()) }
            \(tracks)
            """
        let file = path(name + ".yaml")
        try text.write(toFile: file, atomically: true, encoding: .utf8)
        return file
    }

    /// (codec name, kind) of each stream, in order.
    func streams(_ file: String) throws -> [String] {
        let probe = try MediaFactory.ffprobe(file, ["-show_entries", "stream=codec_name,codec_type"])
        return (probe["streams"] as? [[String: Any]] ?? []).map { "\($0["codec_type"] as? String ?? "?"):\($0["codec_name"] as? String ?? "?")" }
    }

    func decodedVideoFrames(_ file: String) throws -> Int {
        let probe = try MediaFactory.ffprobe(file, ["-count_frames", "-select_streams", "v:0", "-show_entries", "stream=nb_read_frames"])
        return Int((probe["streams"] as? [[String: Any]])?.first?["nb_read_frames"] as? String ?? "") ?? -1
    }

    /// Samples per channel the file's audio decodes to (ffmpeg's decoder, with the container's
    /// priming and padding removed as players do).
    /// Samples 2 s of audio decode to: exact, but for AAC in MP4, MOV and M4A, which FFmpeg 5.1
    /// writes with the priming cut (edit list) and the end not, so it decodes to whole 1024-sample
    /// frames (ffmpeg's own `-c:a aac` gives the same).
    static func expectedSamples(_ codec: String) -> Int { codec == "aac" ? 94 * 1024 : 96_000 }

    func decodedAudioSamples(_ file: String) throws -> Int {
        let raw = path("decoded-\(UUID().uuidString).f32")
        defer { try? FileManager.default.removeItem(atPath: raw) }
        try MediaFactory.ffmpeg(["-i", file, "-map", "0:a:0", "-ac", "1", "-f", "f32le", raw])
        return try Data(contentsOf: URL(fileURLWithPath: raw)).count / 4
    }

    /// Renders `project` to `name` with 1, 2 and 3 jobs (no cache) and checks the three are the
    /// same bytes; returns the file.
    func renderWithJobs(_ project: String, to name: String, extra: [String] = []) throws -> String {
        var digests: [String] = []
        for jobs in 1...3 {
            let out = path("jobs\(jobs)-\(name)")
            let run = try ReelCommand.run(["render", project, "-o", out, "--jobs", String(jobs), "--no-cache", "--progress", "none"] + extra)
            try #require(run.status == 0, "\(name) with \(jobs) jobs: \(run.standardError)")
            digests.append(try SHA256.hexDigest(ofFileAt: out))
        }
        #expect(Set(digests).count == 1, "\(name): the bytes depend on --jobs: \(digests)")
        return path("jobs1-\(name)")
    }

    static let videoContainers: [(String, [String])] = [
        ("mp4", ["video:h264", "audio:aac"]), ("mov", ["video:h264", "audio:aac"]),
        ("mkv", ["video:h264", "audio:opus"]), ("webm", ["video:vp9", "audio:opus"]),
    ]

    /// Lowest PSNR allowed between a frame of another container's render and the same frame of
    /// the MP4 render (H.264 crf 23 against VP9 crf 32 at 160x90; the same H.264 packets give ∞).
    static let psnrFloor = 30.0

    @Test(arguments: videoContainers)
    func videoContainerGetsItsOwnCodecs(ext: String, expected: [String]) throws {
        let project = try project("video-\(ext)")
        let out = try renderWithJobs(project, to: "out.\(ext)")
        #expect(try streams(out) == expected)
        #expect(try decodedVideoFrames(out) == 50)
        #expect(try decodedAudioSamples(out) == Self.expectedSamples(String(expected[1].dropFirst(6))))
        let reference = path("reference-\(ext).mp4")
        let run = try ReelCommand.run(["render", project, "-o", reference, "--no-cache", "--progress", "none"])
        try #require(run.status == 0, "\(run.standardError)")
        for frame in [0, 12, 13, 37, 49] { // both sides of the first segment joins
            let psnr = StillCommandTests.psnr(try StillCommandTests.rgb(out, frame: frame), try StillCommandTests.rgb(reference, frame: frame))
            #expect(psnr > Self.psnrFloor, "\(ext) frame \(frame): \(psnr) dB")
        }
    }

    static let audioContainers: [(String, String)] = [
        ("m4a", "aac"), ("mp3", "mp3"), ("wav", "pcm_s16le"), ("flac", "flac"), ("ogg", "opus"), ("opus", "opus"),
    ]

    /// A video project written to an audio-only container is audio only: the container says so.
    @Test(arguments: audioContainers)
    func audioContainerHoldsTheAudioAlone(ext: String, codec: String) throws {
        let project = try project("audio-\(ext)")
        let out = try renderWithJobs(project, to: "out.\(ext)")
        #expect(try streams(out) == ["audio:\(codec)"])
        #expect(try decodedAudioSamples(out) == Self.expectedSamples(codec), "\(ext)")
    }

    @Test func aProjectWithoutVideoWritesAudioOnlyIntoAVideoContainer() throws {
        let project = try project("no-video", video: false)
        let out = try renderWithJobs(project, to: "no-video.mp4")
        #expect(try streams(out) == ["audio:aac"])
        #expect(try decodedAudioSamples(out) == Self.expectedSamples("aac"))
        let plan = try ReelCommand.run(["plan", project, "--json"])
        let json = try JSONSerialization.jsonObject(with: Data(plan.standardOutput.utf8)) as? [String: Any]
        #expect((json?["segments"] as? [Any])?.count == 0, "\(plan.standardOutput)")
    }

    @Test func audioOnlyFlagLeavesTheVideoOut() throws {
        let project = try project("flag-audio-only")
        let out = try renderWithJobs(project, to: "flag.mkv", extra: ["--audio-only"])
        #expect(try streams(out) == ["audio:opus"])
        #expect(try decodedAudioSamples(out) == 96_000)
    }

    @Test func explicitCodecsThatFitAreKept() throws {
        let project = try project("explicit", output: "video: { codec: vp9, crf: 40 }\naudio: { codec: opus }")
        let out = try renderWithJobs(project, to: "explicit.mp4")
        #expect(try streams(out) == ["video:vp9", "audio:opus"])
        #expect(try decodedVideoFrames(out) == 50)
    }

    /// A problem's first line: `file:line:col: error: message`.
    func firstError(_ run: ReelRun) -> String {
        run.standardError.split(separator: "\n").first { $0.contains("error:") }.map(String.init) ?? run.standardError
    }

    @Test func misfitsAreErrorsAtTheirPlaceBeforeTheFirstFrame() throws {
        let webm = try project("misfit-webm", output: "path: out.webm\nvideo: { codec: h264 }\naudio: { codec: aac }")
        let validate = try ReelCommand.run(["validate", webm])
        #expect(validate.status == 65)
        #expect(validate.standardError.contains("\(webm):7:19: error: a webm file cannot hold h264 video"), "\(validate.standardError)")
        #expect(validate.standardError.contains("\(webm):8:19: error: a webm file cannot hold aac audio"), "\(validate.standardError)")
        #expect(validate.standardError.contains("hint: use vp9, or leave it out for vp9"), "\(validate.standardError)")

        // In the project itself, an audio-only file with video settings is a contradiction.
        let videoCodec = try project("misfit-wav", output: "path: out.wav\nvideo: { codec: h264 }")
        let validateWav = try ReelCommand.run(["validate", videoCodec])
        #expect(validateWav.status == 65)
        #expect(firstError(validateWav) == "\(videoCodec):7:19: error: a wav file holds audio only, not h264 video", "\(validateWav.standardError)")

        let unknown = try project("misfit-ext", output: "path: out.avi")
        let named = try ReelCommand.run(["validate", unknown])
        #expect(named.status == 65)
        #expect(firstError(named) == "\(unknown):6:9: error: cannot tell the container from '.avi'", "\(named.standardError)")
    }

    /// Audio alone asked for on the command line ignores the project's video settings.
    @Test(arguments: [["-o", "out.wav"], ["-o", "out.mp3"], ["--audio-only", "-o", "out.m4a"]])
    func anAudioOutputAskedForOnTheCommandLineIgnoresTheVideoSettings(arguments: [String]) throws {
        let project = try project("audio-of-video-" + arguments.last!, output: "video: { codec: h264, crf: 20, preset: veryfast }")
        let out = path("ignoring-video-" + arguments.last!)
        let run = try ReelCommand.run(["render", project] + arguments.dropLast() + [out, "--no-cache", "--progress", "none"])
        #expect(run.status == 0, "\(arguments): \(run.standardError)")
        #expect(try streams(out).allSatisfy { $0.hasPrefix("audio:") } && !(try streams(out)).isEmpty, "\(arguments)")
    }

    @Test func anAudioOnlyOutputOfASilentProjectIsAnError() throws {
        let text = """
            reel: 1
            output: { size: [160, 90], fps: 25, path: out.flac }
            video:
              - clips:
                  - color: "#204060"
                    duration: 1s
            """
        let file = path("silent.yaml")
        try text.write(toFile: file, atomically: true, encoding: .utf8)
        let run = try ReelCommand.run(["validate", file])
        #expect(run.status == 65)
        #expect(firstError(run) == "\(file):2:9: error: the output holds audio only (a flac file) but the project has no sound", "\(run.standardError)")
    }
}
