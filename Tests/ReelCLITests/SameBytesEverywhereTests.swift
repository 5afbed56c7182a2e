import Digest
import Foundation
import TestSupport
import Testing

/// Reel's first promise, output codec by output codec: the same project gives the same bytes
/// whatever the heap held (`MALLOC_PERTURB_`), however many jobs render its segments, and on
/// other CPU families: emulated Nehalem (SSE4.2, no AVX or FMA) and Haswell (AVX2, FMA) under
/// `qemu-x86_64` against this machine's own bytes. The project touches every shared path:
/// decoding H.264 and 5.1 AAC at 44.1 kHz (resampled and downmixed), a rotating clip, a
/// crossfade, text, an SVG, a picture watermark, a volume fade and a loudness target.
@Suite struct SameBytesEverywhereTests {
    static let folder = MediaFactory.folder("same-bytes")

    static let media: Result<[String: String], any Error> = Result {
        let clip = try MediaFactory.file("same-bytes-clip.mp4", ["-f", "lavfi", "-i", "testsrc2=s=320x180:r=25:d=3",
                                                                 "-c:v", "libx264", "-crf", "12", "-g", "12", "-bf", "2"])
        let bars = try MediaFactory.file("same-bytes-bars.mp4", ["-f", "lavfi", "-i", "smptehdbars=s=256x144:r=30:d=3",
                                                                 "-c:v", "libx264", "-crf", "12"])
        let svg = folder.appendingPathComponent("star.svg").path
        try """
            <svg xmlns="http://www.w3.org/2000/svg" width="100" height="100" viewBox="0 0 100 100">
              <defs><linearGradient id="g"><stop offset="0" stop-color="#ff3366"/><stop offset="1" stop-color="#3366ff"/></linearGradient></defs>
              <path d="M50 5 L61 38 L95 38 L67 58 L78 92 L50 72 L22 92 L33 58 L5 38 L39 38 Z" fill="url(#g)" stroke="#fff" stroke-width="3"/>
              <circle cx="50" cy="50" r="12" fill="none" stroke="#000" stroke-width="2"/>
            </svg>
            """.write(toFile: svg, atomically: true, encoding: .utf8)
        return ["clip": clip, "bars": bars, "tone": try HostileMedia.surround44100(), "logo": try MediaFactory.file("same-bytes-logo.png", ["-f", "lavfi", "-i", "color=c=0x3366ff@0.6:s=96x32,format=rgba,drawbox=x=4:y=4:w=88:h=24:color=white@0.9:t=2", "-frames:v", "1"]),
                "star": svg]
    }

    /// `seconds` long (2 s: four 0.5 s segments joined) at `size`, with `output` lines added
    /// and the clips joined by `transition`.
    static func project(_ name: String, size: (Int, Int) = (160, 90), seconds: Double = 2, segment: String = "0.5s",
                        output: String = "", transition: String = "crossfade") throws -> String {
        let media = try Self.media.get()
        let text = """
            reel: 1
            output:
              size: [\(size.0), \(size.1)]
              fps: 25
              segment: \(segment)
            \(output.split(separator: "\n").map { "  " + $0 }.joined(separator: "\n"))
            media: { \(media.map { "\($0.key): \($0.value)" }.sorted().joined(separator: ", ")) }
            video:
              - clips:
                  - media: clip
                    duration: \(seconds * 0.625)s
                    transform: { rotation: [{ at: 0, value: 0, ease: ease-in-out }, { at: end, value: 9 }], scale: 1.1 }
                  - { transition: \(transition), duration: \(seconds * 0.25)s }
                  - { media: bars, duration: \(seconds * 0.625)s, fit: contain }
            audio:
              - clips:
                  - { media: tone, duration: \(seconds)s, fade_in: 0.5s, volume: [{ at: 0, value: 0.5 }, { at: end, value: 1 }] }
            overlays:
              - text: "Reel — same bytes"
                at: 0.2s
                duration: \(seconds - 0.5)s
                position: ["50%", "75%"]
                style: { font: DejaVu Sans, weight: bold, size: 14, color: "#ffffff", stroke: { color: "#000000", width: 1 } }
                fade_in: 0.3s
              - svg: star
                position: ["20%", "30%"]
                size: ["15%", null]
                rotation: [{ at: 0, value: 0 }, { at: end, value: 90 }]
              - image: logo
                watermark: { corner: top-right, margin: 4, width: "20%" }
                opacity: 0.8
            """
        let file = folder.appendingPathComponent(name + ".yaml").path
        try text.write(toFile: file, atomically: true, encoding: .utf8)
        return file
    }

    /// One output per encoder Reel drives (H.264, VP9, H.265, AV1, ProRes, GIF, APNG, PNG,
    /// JPEG; AAC, Opus, FLAC, MP3, PCM; the loudness pass), by the output file's name and the
    /// project's `output` lines. The containers around them are OutputFormatTests'.
    static let outputs: [(String, String)] = [
        ("h264-aac.mp4", ""), ("vp9-opus.webm", ""),
        ("h265-flac.mkv", "video: { codec: h265 }\naudio: { codec: flac }"),
        ("av1-mp3.mp4", "video: { codec: av1, crf: 40, preset: \"8\" }\naudio: { codec: mp3 }"),
        ("prores-pcm.mov", "video: { codec: prores }\naudio: { codec: pcm }"),
        ("loudness.mp4", "audio: { codec: aac, loudness: -16, true_peak: -1.5 }"),
        ("picture.gif", ""), ("picture.apng", ""), ("frames/f%03d.png", ""), ("frames/f%03d.jpg", ""),
    ]

    /// Renders `project` to `output` (in a folder of its own) and returns the SHA-256 of each
    /// file written, in name order: one for a file, one per picture for a sequence.
    static func render(_ project: String, _ output: String, as run: String, jobs: Int = 1, environment: [String: String] = [:],
                       under emulator: [String] = []) throws -> [String] {
        let folder = Self.folder.appendingPathComponent("\(run)-\(URL(fileURLWithPath: project).deletingPathExtension().lastPathComponent)")
        try? FileManager.default.removeItem(at: folder)
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("frames"), withIntermediateDirectories: true)
        let arguments = ["render", project, "-o", folder.appendingPathComponent(output).path, "--jobs", String(jobs), "--no-cache",
                         "--progress", "none"]
        let result = try ReelCommand.run(arguments, environment: environment, emulator: emulator)
        try #require(result.status == 0, "\(output) (\(run)): \(result.standardError)")
        let written = output.hasPrefix("frames/") ? folder.appendingPathComponent("frames") : folder
        let files = try FileManager.default.contentsOfDirectory(atPath: written.path).filter { !$0.hasPrefix(".") && $0 != "frames" }.sorted()
        return try files.map { try SHA256.hexDigest(ofFileAt: written.appendingPathComponent($0).path) }
    }

    @Test(arguments: outputs)
    func theHeapAndTheJobsChangeNothing(output: String, settings: String) throws {
        let project = try Self.project("heap-" + output.replacingOccurrences(of: "/", with: "-"), output: settings)
        let reference = try Self.render(project, output, as: "plain")
        #expect(!reference.isEmpty)
        for (jobs, perturb) in [(1, "85"), (2, "170"), (3, "")] {
            let environment = perturb.isEmpty ? [:] : ["MALLOC_PERTURB_": perturb]
            #expect(try Self.render(project, output, as: "jobs\(jobs)-perturb\(perturb)", jobs: jobs, environment: environment) == reference,
                    "\(output): --jobs \(jobs), MALLOC_PERTURB_=\(perturb)")
        }
    }

    /// The size marketing teams render most: 9:16 at 1080x1920, where x264's AVX-512 code gave
    /// other bytes on every run (its lookahead's rows are not a multiple of 16 macroblocks).
    @Test func aVerticalFullHDVideoIsTheSameOnEveryRun() throws {
        let project = try Self.project("vertical-1080x1920", size: (1080, 1920))
        let reference = try Self.render(project, "vertical.mp4", as: "plain")
        for (jobs, perturb) in [(1, "85"), (2, "170")] {
            #expect(try Self.render(project, "vertical.mp4", as: "jobs\(jobs)-perturb\(perturb)", jobs: jobs,
                                    environment: ["MALLOC_PERTURB_": perturb]) == reference, "--jobs \(jobs), MALLOC_PERTURB_=\(perturb)")
        }
    }

    /// QEMU's user-mode emulator (Debian's qemu-user, which scripts/test installs).
    static let qemu = "/usr/bin/qemu-x86_64"

    /// Each output rendered by this machine and by emulated Nehalem and Haswell CPUs (the two at
    /// once; 1.2 s in three segments, as emulation is ten times slower), the clips joined by a
    /// built-in transition kernel. Opus is the one exception, and only against this machine: libopus's pulse search
    /// uses RCPPS, an approximate reciprocal whose bits each CPU maker defines; QEMU computes an
    /// exact one instead, which no real CPU does. The emulated CPUs still agree with each other,
    /// and the video beside the Opus audio is compared with this machine's.
    @Test(arguments: outputs)
    func otherCPUFamiliesGiveTheSameBytes(output: String, settings: String) async throws {
        try #require(FileManager.default.isExecutableFile(atPath: Self.qemu), "install qemu-user: the test runs Reel on emulated CPUs")
        // A built-in kernel whose every pixel takes sines, cosines, an arc cosine and an
        // exponential (FloatMath, which must round the same on every CPU).
        let project = try Self.project("cpu-" + output.replacingOccurrences(of: "/", with: "-"), seconds: 1.2, segment: "0.4s",
                                       output: settings, transition: "butterfly-wave-scrawler")
        let native = try Self.render(project, output, as: "native")
        async let nehalem = Self.render(project, output, as: "nehalem", under: [Self.qemu, "-cpu", "Nehalem"])
        async let haswell = Self.render(project, output, as: "haswell", under: [Self.qemu, "-cpu", "Haswell"])
        let (n, h) = try await (nehalem, haswell)
        #expect(n == h, "\(output): emulated Nehalem and Haswell differ")
        if try Self.audioCodec(project, output) == "opus" {
            let video = try Self.videoStream(project, output, "native")
            #expect(!video.isEmpty)
            for run in ["nehalem", "haswell"] {
                #expect(try Self.videoStream(project, output, run) == video, "\(output): video on \(run)")
            }
        } else {
            #expect(n == native, "\(output): emulated Nehalem differs from this machine")
            #expect(h == native, "\(output): emulated Haswell differs from this machine")
        }
    }

    /// A user's GLSL transition and a clip a shader draws (llvmpipe's JIT code, with FMA at hand
    /// on Haswell and on this machine but not on Nehalem): the same bytes whatever the heap, the
    /// jobs and the CPU.
    @Test func aGLSLTransitionAndClipAreTheSameEverywhere() async throws {
        try #require(FileManager.default.isExecutableFile(atPath: Self.qemu), "install qemu-user: the test runs Reel on emulated CPUs")
        let media = try Self.media.get()
        // Products and sums a fused multiply-add would round differently, and transcendental functions.
        let shader = """
            uniform float swirl; // = 3.0
            vec4 transition(vec2 uv) {
              vec2 p = uv - 0.5;
              float a = atan(p.y, p.x) + swirl * progress * length(p) * 7.3;
              float w = 0.5 + 0.5 * sin(a * 5.0 + progress * 11.7) * cos(length(p) * 23.1);
              vec2 bent = 0.5 + length(p) * vec2(cos(a), sin(a)) * (1.0 - 0.3 * progress);
              return mix(getFromColor(bent), getToColor(uv), smoothstep(0.2, 0.8, w * progress + progress * progress));
            }
            """
        try shader.write(to: Self.folder.appendingPathComponent("swirl.glsl"), atomically: true, encoding: .utf8)
        let picture = """
            uniform float time;
            uniform vec2 resolution;
            void main() {
              vec2 p = gl_FragCoord.xy / resolution - 0.5;
              float r = length(p) * 17.9 + sin(atan(p.y, p.x) * 7.0 + time * 3.1);
              gl_FragColor = vec4(0.5 + 0.5 * cos(r * 1.3 + vec3(0.0, 2.1, 4.2)), 1.0);
            }
            """
        try picture.write(to: Self.folder.appendingPathComponent("rings.frag"), atomically: true, encoding: .utf8)
        let text = """
            reel: 1
            output: { size: [160, 90], fps: 25, segment: 0.4s }
            media: { clip: \(media["clip"]!), bars: \(media["bars"]!) }
            video:
              - clips:
                  - { media: clip, duration: 0.6s }
                  - { transition: { glsl: swirl.glsl, params: { swirl: 4.5 } }, duration: 0.4s }
                  - { media: bars, duration: 0.6s }
                  - { glsl: rings.frag, duration: 0.6s }
            """
        let project = Self.folder.appendingPathComponent("glsl.yaml").path
        try text.write(toFile: project, atomically: true, encoding: .utf8)
        let native = try Self.render(project, "out.mp4", as: "native")
        #expect(try Self.render(project, "out.mp4", as: "jobs2-perturb", jobs: 2, environment: ["MALLOC_PERTURB_": "170"]) == native)
        async let nehalem = Self.render(project, "out.mp4", as: "nehalem", under: [Self.qemu, "-cpu", "Nehalem"])
        async let haswell = Self.render(project, "out.mp4", as: "haswell", under: [Self.qemu, "-cpu", "Haswell"])
        let (n, h) = try await (nehalem, haswell)
        #expect(n == native, "emulated Nehalem differs from this machine")
        #expect(h == native, "emulated Haswell differs from this machine")
    }

    static func renderedFile(_ project: String, _ output: String, _ run: String) -> String {
        folder.appendingPathComponent("\(run)-\(URL(fileURLWithPath: project).deletingPathExtension().lastPathComponent)")
            .appendingPathComponent(output).path
    }

    static func audioCodec(_ project: String, _ output: String) throws -> String? {
        guard !output.hasPrefix("frames/") else { return nil }
        let probe = try MediaFactory.ffprobe(renderedFile(project, output, "native"), ["-select_streams", "a:0", "-show_entries", "stream=codec_name"])
        return (probe["streams"] as? [[String: Any]])?.first?["codec_name"] as? String
    }

    /// The MD5 of the video stream's packets.
    static func videoStream(_ project: String, _ output: String, _ run: String) throws -> String {
        try MediaFactory.run("ffmpeg", ["-v", "error", "-i", renderedFile(project, output, run), "-map", "0:v", "-c", "copy",
                                        "-f", "streamhash", "-hash", "md5", "-"])
    }
}
