import Foundation
import TestSupport
import Testing

/// Image sequences as media at their own frame rate (`{ path: shots/f%04d.png, fps: 24 }`), on
/// real PNGs made with ffmpeg: each file is one flat grey whose level encodes its index in
/// the sequence, so a decoded pixel of a lossless render (x264 crf 0) says which file an output
/// frame shows. Frame timing (file k from exactly k / fps, the latest file at or before each
/// output frame), first numbers other than 0–4, trims, durations in messages, `reel probe`,
/// `reel graph`, and what `reel validate` refuses, with its line:col.
@Suite(.serialized) struct ImageSequenceTests {
    static let folder: URL = MediaFactory.folder("image-sequences")

    static let width = 64, height = 36

    func path(_ name: String) -> String { Self.folder.appendingPathComponent(name).path }

    /// The grey level of the sequence's k-th file: far enough apart to survive the conversion
    /// to Y′CbCr and back.
    static func level(_ k: Int) -> Int { 10 + 6 * k }

    /// Writes `count` PNGs `name/f%04d.png` numbered from `start` (the k-th one grey
    /// `level(k)`), unless they are there; returns the pattern relative to the folder.
    @discardableResult
    func sequence(_ name: String, count: Int, start: Int) throws -> String {
        let pattern = "\(name)/f%04d.png"
        let folder = Self.folder.appendingPathComponent(name)
        if !FileManager.default.fileExists(atPath: folder.path) {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try MediaFactory.ffmpeg(["-f", "lavfi", "-i", "color=s=\(Self.width)x\(Self.height):r=25,format=rgb24,geq=r='10+6*N':g='10+6*N':b='10+6*N'",
                                     "-frames:v", "\(count)", "-start_number", "\(start)", path(pattern)])
        }
        return pattern
    }

    func write(_ name: String, _ text: String) throws -> String {
        try text.write(toFile: path(name), atomically: true, encoding: .utf8)
        return path(name)
    }

    /// A project at `fps` whose one video track holds `clips` (YAML list items), lossless.
    func project(_ name: String, fps: String, media: String, clips: String) throws -> String {
        try write(name, """
        reel: 1
        output: { size: [\(Self.width), \(Self.height)], fps: \(fps), video: { codec: h264, crf: 0, preset: ultrafast } }
        media:
          \(media)
        video:
          - clips:
        \(clips)
        """)
    }

    func reel(_ arguments: [String]) throws -> ReelRun { try ReelCommand.run(arguments) }

    /// Renders `project` and returns, for every output frame, the index of the file it shows.
    func shownFiles(_ project: String) throws -> [Int] {
        let output = project.replacingOccurrences(of: ".yaml", with: ".mkv")
        let run = try reel(["render", project, "-o", output, "--progress", "none", "--no-cache"])
        try #require(run.status == 0, "\(run.standardError)")
        let bytes = try grayFrames(output)
        let size = Self.width * Self.height
        return stride(from: 0, to: bytes.count, by: size).map { start in
            let centre = Int(bytes[start + size / 2 + Self.width / 2])
            return Int((Double(centre - Self.level(0)) / 6).rounded())
        }
    }

    /// The decoded frames of `file` as 8-bit grey, one after another.
    func grayFrames(_ file: String) throws -> [UInt8] {
        let raw = path("frames.gray")
        try MediaFactory.ffmpeg(["-i", file, "-f", "rawvideo", "-pix_fmt", "gray", raw])
        return [UInt8](try Data(contentsOf: URL(fileURLWithPath: raw)))
    }

    @Test func aSequenceAt24FpsShowsFileKAtFrameKOfA24FpsOutput() throws {
        let shots = try sequence("s24", count: 24, start: 1)
        let project = try project("same-rate.yaml", fps: "24", media: "shots: { path: \(shots), fps: 24 }", clips: "      - media: shots")
        #expect(try shownFiles(project) == Array(0..<24))
    }

    @Test func aSequenceAt24FpsInA30FpsOutputShowsTheLatestFileAtOrBeforeEachFrame() throws {
        let shots = try sequence("s24", count: 24, start: 1)
        let project = try project("to-30.yaml", fps: "30", media: "shots: { path: \(shots), fps: 24 }", clips: "      - media: shots")
        // 24 files at 24 fps last 1 s: 30 output frames, frame n showing file ⌊n·24/30⌋.
        #expect(try shownFiles(project) == (0..<30).map { $0 * 24 / 30 })
    }

    @Test func a2997FpsSequenceIsTimedAtExactly1001Over30000SecondsAFile() throws {
        let shots = try sequence("s2997", count: 30, start: 0)
        let project = try project("ntsc.yaml", fps: "30", media: "shots: { path: \(shots), fps: 29.97 }", clips: "      - media: shots")
        // 30 files last 30 × 1001/30000 = 1.001 s: 31 frames at 30 fps, frame n at n/30 s
        // showing file ⌊(n/30) ÷ (1001/30000)⌋ = ⌊n·1000/1001⌋ (at 25 fps it would be ⌊n·25/30⌋).
        #expect(try shownFiles(project) == (0..<31).map { $0 * 1000 / 1001 })
        let same = try self.project("ntsc-same.yaml", fps: "\"30000/1001\"", media: "shots: { path: \(shots), fps: \"30000/1001\" }",
                                    clips: "      - media: shots")
        #expect(try shownFiles(same) == Array(0..<30))
    }

    @Test(arguments: [0, 1, 1001])
    func aSequenceNumberedFromAnyNumberStartsAtItsFirstFile(start: Int) throws {
        let shots = try sequence("from\(start)", count: 12, start: start)
        let project = try project("from\(start).yaml", fps: "24", media: "shots: { path: \(shots), fps: 24 }", clips: "      - media: shots")
        #expect(try shownFiles(project) == Array(0..<12))
    }

    @Test func theStringFormStillReadsASequenceAt25FpsFromAnyFirstNumber() throws {
        let shots = try sequence("from1001-25", count: 25, start: 1001)
        let project = try project("string.yaml", fps: "50", media: "shots: \(shots)", clips: "      - media: shots")
        #expect(try shownFiles(project) == (0..<50).map { $0 / 2 })
    }

    @Test func trimsShowTheExactFiles() throws {
        let shots = try sequence("s24", count: 24, start: 1)
        let clips = """
              - media: shots
                from: 0.5s
                duration: 0.25s
              - media: shots
                from: 10f
                to: 14f
        """
        let same = try project("trim24.yaml", fps: "24", media: "shots: { path: \(shots), fps: 24 }", clips: clips)
        // 0.5 s is file 12; 10f and 14f are output frames: files 10 to 13.
        #expect(try shownFiles(same) == [12, 13, 14, 15, 16, 17, 10, 11, 12, 13])
        let faster = try project("trim30.yaml", fps: "30", media: "shots: { path: \(shots), fps: 24 }", clips: """
              - media: shots
                from: 0.5s
                duration: 0.2s
        """)
        // Output frame n shows the source at 0.5 s + n/30: file ⌊12 + n·24/30⌋.
        #expect(try shownFiles(faster) == (0..<6).map { 12 + $0 * 24 / 30 })
    }

    @Test func theSequencesDurationIsItsFileCountOverItsRateInMessagesProbeAndGraph() throws {
        let shots = try sequence("s2997", count: 30, start: 0)
        let past = try project("past-end.yaml", fps: "30", media: "shots: { path: \(shots), fps: 29.97 }", clips: """
              - media: shots
                to: 1.5s
        """)
        let run = try reel(["validate", past])
        #expect(run.status == 65)
        #expect(run.standardError.contains("past-end.yaml:7:9: error: the clip reads 'shots' up to 00:00:01.500 but the media ends at 00:00:01.001"),
                "\(run.standardError)")
        let probe = try reel(["probe", path(shots), "--fps", "29.97"])
        #expect(probe.status == 0 && probe.standardOutput.contains("1001/1000"), "\(probe.standardOutput)")
        let json = try reel(["probe", path(shots), "--fps", "29.97", "--json"])
        #expect(json.standardOutput.contains("\"30000/1001\""), "\(json.standardOutput)")
        let plain = try reel(["probe", path(shots)])
        #expect(plain.standardOutput.contains("6/5"), "25 fps without --fps: 30 files last 1.2 s\n\(plain.standardOutput)")
        let ok = try project("graph.yaml", fps: "30", media: "shots: { path: \(shots), fps: 29.97 }", clips: "      - media: shots")
        let graph = try reel(["graph", ok])
        #expect(graph.standardOutput.contains("shots (f%04d.png at 30000/1001 fps) source [0, 1001/1000)"), "\(graph.standardOutput)")
    }

    @Test func probeSavesTheFrameOfASequenceAtItsRate() throws {
        let shots = try sequence("s24", count: 24, start: 1)
        let png = path("probe-frame.png")
        let run = try reel(["probe", path(shots), "--fps", "24", "--frame", "0.5s", "-o", png])
        #expect(run.status == 0, "\(run.standardError)")
        let grey = try grayFrames(png)
        #expect(abs(Int(grey[grey.count / 2]) - Self.level(12)) <= 2, "0.5 s at 24 fps is file 12")
        let notASequence = try reel(["probe", path("same-rate.yaml"), "--fps", "24"])
        #expect(notASequence.status == 64 && notASequence.standardError.contains("--fps applies only to an image sequence"))
    }

    @Test func validationRefusesFpsOnOneFileBadRatesMissingSequencesAndGaps() throws {
        _ = try sequence("s24", count: 24, start: 1)
        try MediaFactory.ffmpeg(["-f", "lavfi", "-i", "color=s=64x36:r=25:d=1", "-c:v", "libx264", "-preset", "ultrafast", path("clip.mp4")])
        let gappy = Self.folder.appendingPathComponent("gap")
        if !FileManager.default.fileExists(atPath: gappy.path) {
            _ = try sequence("gap", count: 10, start: 1)
            try FileManager.default.removeItem(atPath: path("gap/f0005.png"))
        }
        let bad = try write("bad.yaml", """
        reel: 1
        output: { size: [64, 36], fps: 24 }
        media:
          clip: { path: clip.mp4, fps: 24 }
          far: { path: "https://example.com/shots/f%04d.png", fps: 24 }
          odd: { path: s24/f%04d.png, fps: "24/0" }
          none: { path: nothing/f%04d.png, fps: 24 }
          gap: { path: gap/f%04d.png, fps: 24 }
        video:
          - clips:
              - media: clip
              - media: none
              - media: gap
              - media: odd
        """)
        let run = try reel(["validate", bad, "--offline"])
        let errors = run.standardError
        #expect(run.status == 66, "a missing file: \(errors)")
        #expect(errors.contains("bad.yaml:4:32: error: 'fps' applies only to image sequences, and 'clip.mp4' is one file"), "\(errors)")
        #expect(errors.contains("bad.yaml:5:60: error: 'fps' applies only to image sequences, and 'https://example.com/shots/f%04d.png' is a URL"), "\(errors)")
        #expect(errors.contains("bad.yaml:6:36: error: fps must be a positive number"), "\(errors)")
        #expect(errors.contains("bad.yaml:7:17: error: media file 'none' not found"), "\(errors)")
        #expect(errors.contains("bad.yaml:8:16: error: media file 'gap'") && errors.contains("f0005.png is missing"), "\(errors)")
        let zero = try write("zero.yaml", """
        reel: 1
        output: { size: [64, 36], fps: 24 }
        media:
          slow: { path: s24/f%04d.png, fps: 0 }
        video:
          - clips:
              - media: slow
        """)
        let schema = try reel(["validate", zero])
        #expect(schema.status == 65 && schema.standardError.contains("zero.yaml:4:37: error: media.slow.fps: must be at least 1"), "\(schema.standardError)")
    }

    @Test func unknownKeysOfAMediaObjectAreNamed() throws {
        _ = try sequence("s24", count: 24, start: 1)
        let typo = try write("typo.yaml", """
        reel: 1
        output: { size: [64, 36], fps: 24 }
        media:
          shots: { path: s24/f%04d.png, fsp: 24 }
        video:
          - clips:
              - media: shots
        """)
        let run = try reel(["validate", typo])
        #expect(run.status == 65)
        #expect(run.standardError.contains("typo.yaml:4:33:") && run.standardError.contains("did you mean 'fps'?"), "\(run.standardError)")
    }
}
