import Foundation
import TestSupport
import Testing

/// `reel import` / `reel export` as a user runs them: an imported EDL shows, frame for frame,
/// the source frames it asks for; exit statuses and messages; JSON projects.
@Suite(.serialized) struct InterchangeCommandTests {
    // MARK: An EDL event, as the test reads it (independently of Sources/Interchange)

    struct Event {
        var number: String
        /// The `* SOURCE FILE:` of the event, else its reel: the media made for it.
        var source: String
        /// Frames at 24 fps from 00:00:00:00.
        var sourceIn: Int, recordIn: Int, recordOut: Int
    }

    static let rate = 24
    /// The start timecode of every generated source (`-timecode 01:00:00:00`), in frames.
    static let mediaStart = 3600 * rate

    static func frames(_ timecode: Substring) -> Int {
        let parts = timecode.split(separator: ":").map { Int($0)! }
        return ((parts[0] * 60 + parts[1]) * 60 + parts[2]) * rate + parts[3]
    }

    /// The cut events (`C`) of a CMX 3600 EDL with their source file (or reel).
    static func events(_ text: String) -> [Event] {
        var events: [Event] = []
        for line in text.split(whereSeparator: \.isNewline) {
            let fields = line.split(whereSeparator: \.isWhitespace)
            if fields.count == 8, fields[0].allSatisfy(\.isNumber), fields[2] == "V", fields[3] == "C" {
                events.append(Event(number: String(fields[0]), source: String(fields[1]), sourceIn: frames(fields[4]),
                                    recordIn: frames(fields[6]), recordOut: frames(fields[7])))
            } else if let range = line.range(of: "SOURCE FILE:"), !events.isEmpty {
                events[events.count - 1].source = line[range.upperBound...].trimmingCharacters(in: .whitespaces)
            }
        }
        return events
    }

    // MARK: Sources that burn in their own timecode

    /// `folder/name.mp4`: testsrc2 at 320×180, 24 fps, `seconds` long, tinted by `hue` (each
    /// source its own colours, so a wrong file cannot pass for the right one), its timecode
    /// (from 01:00:00:00) and name burnt in, and a `timecode` tag of 01:00:00:00.
    static func burntInSource(_ name: String, in folder: String, hue: Int, seconds: Int) throws -> String {
        try FileManager.default.createDirectory(atPath: MediaFactory.path(folder), withIntermediateDirectories: true)
        let label = name.replacingOccurrences(of: ":", with: "_")
        let filter = [
            "testsrc2=size=320x180:rate=\(rate):duration=\(seconds)",
            "hue=h=\(hue)",
            #"drawtext=font='DejaVu Sans Mono':timecode='01\:00\:00\:00':rate=24:fontsize=28:fontcolor=white:box=1:boxcolor=black:x=8:y=8"#,
            "drawtext=font='DejaVu Sans Mono':text='\(label)':fontsize=18:fontcolor=yellow:box=1:boxcolor=black:x=8:y=150",
        ].joined(separator: ",")
        return try MediaFactory.file("\(folder)/\(name).mp4", ["-f", "lavfi", "-i", filter, "-timecode", "01:00:00:00",
                                                              "-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv420p"])
    }

    /// Whole-frame PSNR above which a frame of the import shows the source frame asked for.
    /// Measured (both EDLs, first and last frame of every event): the right frame 31.6–36.4 dB
    /// (what remains after the render's 4:2:0 round trip), the source frames one before and
    /// one after 16.8–21.3 dB (testsrc2 moves every frame and the burnt-in timecode changes),
    /// another source at the same frame 3–12 dB (each source has its own hue).
    static let matchThreshold = 28.0

    /// Imports `edl` with generated sources in `--media-dir`, then for the first and last
    /// frame of every cut event: `reel frame` of the project matches the source frame the EDL
    /// names (source in + offset − 01:00:00:00) and does not match its neighbours.
    func checkRenderedEvents(edl: String, tag: String, expectedEvents: Int) throws {
        let events = Self.events(try String(contentsOfFile: edl, encoding: .utf8))
        try #require(events.count == expectedEvents, "\(events.map(\.number))")
        let folder = "interchange-\(tag)"
        let sources = events.reduce(into: [String]()) { if !$0.contains($1.source) { $0.append($1.source) } }
        let seconds = (events.map { $0.sourceIn + $0.recordOut - $0.recordIn }.max()! - Self.mediaStart) / Self.rate + 2
        var media: [String: String] = [:]
        for (n, source) in sources.enumerated() {
            media[source] = try Self.burntInSource(source, in: folder, hue: n * 360 / sources.count, seconds: seconds)
        }

        let project = MediaFactory.path("\(folder).yaml")
        let imported = try ReelCommand.run(["import", edl, "-o", project, "--media-dir", MediaFactory.path(folder)])
        try #require(imported.status == 0, "\(imported.standardError)")
        #expect(imported.standardOutput.contains("\(events.count) clips on 1 track, \(sources.count) media (0 not found)"), "\(imported.standardOutput)")
        let validated = try ReelCommand.run(["validate", project])
        try #require(validated.status == 0, "\(validated.standardError)")

        let start = events.map(\.recordIn).min()!
        var lines: [String] = []
        for event in events {
            let length = event.recordOut - event.recordIn
            for offset in Set([0, length - 1]).sorted() {
                let recordFrame = event.recordIn - start + offset
                let sourceFrame = event.sourceIn - Self.mediaStart + offset
                let png = MediaFactory.path("\(folder)-\(recordFrame).png")
                let frame = try ReelCommand.run(["frame", project, "--at", "\(recordFrame)f", "-o", png])
                try #require(frame.status == 0, "\(frame.standardError)")
                let ours = try StillCommandTests.rgb(png)
                let source = try #require(media[event.source])
                let right = StillCommandTests.psnr(ours, try StillCommandTests.rgb(source, frame: sourceFrame))
                let before = StillCommandTests.psnr(ours, try StillCommandTests.rgb(source, frame: sourceFrame - 1))
                let after = StillCommandTests.psnr(ours, try StillCommandTests.rgb(source, frame: sourceFrame + 1))
                let what = "event \(event.number) (\(event.source)) record frame \(recordFrame) = source frame \(sourceFrame)"
                #expect(right > Self.matchThreshold, "\(what): \(right) dB")
                #expect(before < Self.matchThreshold, "\(what): the frame before matches too (\(before) dB)")
                #expect(after < Self.matchThreshold, "\(what): the frame after matches too (\(after) dB)")
                lines.append(String(format: "%@: %.1f dB (neighbours %.1f, %.1f)", what, right, before, after))
            }
        }
        // A wrong source is far off too: the first event's frame against the second source.
        if sources.count > 1, let first = events.first, let other = media[sources[1]] {
            let png = MediaFactory.path("\(folder)-\(first.recordIn - start).png")
            let wrong = StillCommandTests.psnr(try StillCommandTests.rgb(png), try StillCommandTests.rgb(other, frame: first.sourceIn - Self.mediaStart))
            #expect(wrong < Self.matchThreshold, "another source at the same frame matches (\(wrong) dB)")
            lines.append(String(format: "event %@ against %@: %.1f dB", first.number, sources[1], wrong))
        }
        print("interchange rendered check, \(URL(fileURLWithPath: edl).lastPathComponent):\n  " + lines.joined(separator: "\n  "))
    }

    /// `screening_example.edl` (Avid): 9 cuts from two reels and nine source files, starting
    /// 6 s before record 01:00:00:00, one with a RESIZE effect (left out, warned).
    static let screeningEDL = repositoryRoot.appendingPathComponent("../shared/testdata/cmx3600-edl/tests/sample_data/screening_example.edl").standardizedFileURL.path

    @Test(.enabled(if: FileManager.default.fileExists(atPath: screeningEDL), "needs the cmx3600-edl fixtures in ../shared/testdata"))
    func aFixtureEDLShowsTheSourceFramesItAsksFor() throws {
        try checkRenderedEvents(edl: Self.screeningEDL, tag: "screening", expectedEvents: 9)
    }

    /// The same on an EDL of our own (always present): two reels, one used twice, cuts of
    /// 1 s and a half.
    static let ownEDL = """
        TITLE: two reels
        FCM: NON-DROP FRAME
        001  REELA    V     C        01:00:01:00 01:00:02:00 01:00:00:00 01:00:01:00
        * FROM CLIP NAME: a-first
        002  REELB    V     C        01:00:00:13 01:00:01:13 01:00:01:00 01:00:02:00
        * FROM CLIP NAME: b-only
        003  REELA    V     C        01:00:03:07 01:00:03:19 01:00:02:00 01:00:02:12
        * FROM CLIP NAME: a-second

        """

    @Test func anEDLOfTwoReelsShowsTheSourceFramesItAsksFor() throws {
        let edl = MediaFactory.path("two-reels.edl")
        try Self.ownEDL.write(toFile: edl, atomically: true, encoding: .utf8)
        try checkRenderedEvents(edl: edl, tag: "two-reels", expectedEvents: 3)
    }
}

/// `reel import` and `reel export`: exit statuses, the messages' lines and JSON paths, JSON projects.
@Suite struct InterchangeCommandErrorTests {
    static let folder: URL = MediaFactory.folder("interchange-cli")

    func write(_ name: String, _ text: String) throws -> String {
        let url = Self.folder.appendingPathComponent(name)
        try text.write(to: url, atomically: true, encoding: .utf8)
        return url.path
    }

    /// The two-reel EDL with REELA.mp4 and REELB.mp4 (timecode 01:00:00:00) beside it.
    static let cut: Result<String, any Error> = Result {
        for reel in ["REELA", "REELB"] {
            let made = try InterchangeCommandTests.burntInSource(reel, in: "interchange-cli-sources", hue: reel == "REELA" ? 0 : 180, seconds: 5)
            try FileManager.default.copyItem(atPath: made, toPath: folder.appendingPathComponent("\(reel).mp4").path)
        }
        let url = folder.appendingPathComponent("cut.edl")
        try InterchangeCommandTests.ownEDL.write(to: url, atomically: true, encoding: .utf8)
        return url.path
    }

    func run(_ arguments: [String]) throws -> ReelRun { try ReelCommand.run(arguments, in: Self.folder) }

    @Test(arguments: [
        (["import"], "Missing expected argument '<file>'"),
        (["import", "cut.edl"], "give -o PROJECT.yaml (or --list-json)"),
        (["import", "cut.edl", "-o", "project.txt"], "-o must name a .yaml, .yml or .json project, not 'project.txt'"),
        (["import", "cut.txt", "-o", "project.yaml"], "'cut.txt' is neither an EDL (.edl) nor an OpenTimelineIO file (.otio)"),
        (["import", "cut.edl", "-o", "project.yaml", "--fps", "fast"], "--fps takes a frame rate such as 25, 29.97 or 30000/1001, got 'fast'"),
        (["import", "cut.edl", "-o", "project.yaml", "--media", "REELA"], "--media takes NAME=VALUE, got 'REELA'"),
        (["import", "cut.edl", "-o", "project.yaml", "--media-start", "REELA=banana"], "--media-start: the start timecode given for media 'REELA' (banana) is not usable: 'banana' is not a timecode"),
        (["import", "cut.edl", "-o", "project.yaml", "--media", "REELC=REELA.mp4"], "--media: the file for media 'REELC' is given, but the timeline has no clip, reel or file called 'REELC'"),
        (["import", "cut.edl", "-o", "project.yaml", "--media-start", "REELC=01:00:00:00"], "hint: the names it uses: a-first, REELA, b-only, REELB, a-second"),
        (["export", "exported.yaml", "-o", "cut.otio", "--media-start", "b=01:00:00:00"], "--media-start: a start timecode (01:00:00:00) is given for media 'b', which the project does not have"),
        (["export", "exported.yaml"], "Missing expected argument '--output <file>'"),
        (["export", "exported.yaml", "-o", "cut.mov"], "-o must name an .otio or .edl file, not 'cut.mov'"),
        (["export", "exported.yaml", "-o", "cut.edl", "--video-track", "0"], "--video-track counts from 1"),
        (["export", "exported.yaml", "-o", "cut.otio", "--set", "x"], "--set takes name=value, got 'x'"),
    ])
    func badUsageIs64(arguments: [String], message: String) throws {
        _ = try Self.cut.get()
        _ = try write("cut.txt", "not a timeline")
        _ = try write("exported.yaml", "reel: 1\noutput: { size: [320, 180], fps: 24 }\nmedia: { a: REELA.mp4 }\nvideo:\n  - clips:\n      - { media: a, from: 1s, to: 2s }\n")
        let run = try run(arguments)
        #expect(run.status == 64, "\(run.standardError)")
        #expect(run.standardError.contains(message), "\(run.standardError)")
        for written in ["project.txt", "project.yaml", "cut.mov", "cut.otio"] {
            #expect(!FileManager.default.fileExists(atPath: Self.folder.appendingPathComponent(written).path), "\(written) was written")
        }
    }

    @Test func aMalformedEDLIs65WithItsLine() throws {
        let edl = try write("truncated.edl", "TITLE: x\n001  AX       V     C        01:00:00:00 01:00:01:00 00:00:00:00 00:00:01:00\n002  AX       V     C        01:00:01:00 01:0")
        let run = try run(["import", edl, "-o", "truncated.yaml"])
        #expect(run.status == 65)
        #expect(run.standardError.contains("truncated.edl:3: error: event 002 has 6 fields"), "\(run.standardError)")
        #expect(run.standardError.contains("hint: the line is incomplete (a truncated file?)"), "\(run.standardError)")
        #expect(!FileManager.default.fileExists(atPath: Self.folder.appendingPathComponent("truncated.yaml").path))

        let absurd = try write("absurd.edl", "001  AX  V  C  01:00:00:00 01:00:01:00 00:00:00:00 00:00:01:00\n002  AX  V  C  25:61:00:00 25:61:01:00 00:00:01:00 00:00:02:00\n")
        let second = try self.run(["import", absurd, "-o", "absurd.yaml"])
        #expect(second.status == 65)
        #expect(second.standardError.contains("absurd.edl:2: error: event 002: '25:61:00:00'"), "\(second.standardError)")
    }

    @Test func aMalformedOTIOIs65WithItsJSONPath() throws {
        let clip = #"{"OTIO_SCHEMA": "Clip.9", "name": "a"}"#
        let otio = try write("future.otio", #"{"OTIO_SCHEMA": "Timeline.1", "tracks": {"OTIO_SCHEMA": "Stack.1", "children": [{"OTIO_SCHEMA": "Track.1", "kind": "Video", "children": [\#(clip)]}]}}"#)
        let run = try run(["import", otio, "-o", "future.json"])
        #expect(run.status == 65)
        #expect(run.standardError.contains("future.otio: tracks.children[0].children[0]: error: unknown schema version Clip.9"), "\(run.standardError)")

        let truncated = try write("truncated.otio", #"{"OTIO_SCHEMA": "Timeline.1", "tracks": {"OTIO_SCHEMA": "Stack.1", "chil"#)
        let second = try self.run(["import", truncated, "-o", "truncated.json"])
        #expect(second.status == 65)
        #expect(second.standardError.contains("truncated.otio:1:"), "\(second.standardError)")
        #expect(!FileManager.default.fileExists(atPath: Self.folder.appendingPathComponent("future.json").path))
        #expect(!FileManager.default.fileExists(atPath: Self.folder.appendingPathComponent("truncated.json").path))
    }

    @Test func anInvalidProjectIs65OnExport() throws {
        let project = try write("unknown-media.yaml", "reel: 1\noutput: { size: [320, 180], fps: 24 }\nvideo:\n  - clips:\n      - media: nope\n")
        let run = try run(["export", project, "-o", "unknown-media.otio"])
        #expect(run.status == 65)
        #expect(run.standardError.contains("unknown-media.yaml:5:9: error: unknown media 'nope'"), "\(run.standardError)")
        #expect(!FileManager.default.fileExists(atPath: Self.folder.appendingPathComponent("unknown-media.otio").path))
    }

    @Test(arguments: [
        (["import", "missing.edl", "-o", "project.yaml"], "error: no such file: missing.edl"),
        (["import", "missing.otio", "-o", "project.yaml"], "error: no such file: missing.otio"),
        (["import", "cut.edl", "-o", "project.yaml", "--media", "REELA=missing.mp4"], "error: --media: the file given for media 'REELA' does not exist: missing.mp4"),
        (["export", "missing.yaml", "-o", "cut.otio"], "no such file: missing.yaml"),
    ])
    func aMissingFileIs66(arguments: [String], message: String) throws {
        _ = try Self.cut.get()
        let run = try run(arguments)
        #expect(run.status == 66, "\(run.standardError)")
        #expect(run.standardError.contains(message), "\(run.standardError)")
        #expect(!FileManager.default.fileExists(atPath: Self.folder.appendingPathComponent("project.yaml").path))
    }

    @Test func anOutputThatIsAnInputIs73AndTheInputIsKept() throws {
        let edl = try Self.cut.get()
        let fm = FileManager.default
        // The project would be the EDL (through a symlink).
        let link = Self.folder.appendingPathComponent("cut-link.yaml").path
        try? fm.removeItem(atPath: link)
        try fm.createSymbolicLink(atPath: link, withDestinationPath: edl)
        let first = try run(["import", "cut.edl", "-o", "cut-link.yaml"])
        #expect(first.status == 73)
        #expect(first.standardError.contains("will not write cut-link.yaml"), "\(first.standardError)")
        #expect(first.standardError.contains("the imported timeline"), "\(first.standardError)")
        #expect(try String(contentsOfFile: edl, encoding: .utf8) == InterchangeCommandTests.ownEDL)

        // The project would be a file given by --media.
        let media = try write("notes.yaml", "kept")
        let second = try run(["import", "cut.edl", "--media", "REELA=notes.yaml", "-o", "notes.yaml"])
        #expect(second.status == 73)
        #expect(second.standardError.contains("a media file (--media REELA)"), "\(second.standardError)")
        #expect(try String(contentsOfFile: media, encoding: .utf8) == "kept")

        // The export would be the project: by its own name, and through a symlink.
        let projectText = "reel: 1\noutput: { size: [320, 180], fps: 24 }\nmedia: { a: REELA.mp4 }\nvideo:\n  - clips:\n      - { media: a, from: 1s, to: 2s }\n"
        let project = try write("project-as.edl", projectText)
        let third = try run(["export", "project-as.edl", "-o", "project-as.edl"])
        #expect(third.status == 73)
        #expect(third.standardError.contains("the project file"), "\(third.standardError)")
        let exportLink = Self.folder.appendingPathComponent("project-link.otio").path
        try? fm.removeItem(atPath: exportLink)
        try fm.createSymbolicLink(atPath: exportLink, withDestinationPath: project)
        let fourth = try run(["export", "project-as.edl", "-o", "project-link.otio"])
        #expect(fourth.status == 73)
        #expect(fourth.standardError.contains("through a symlink"), "\(fourth.standardError)")
        #expect(try String(contentsOfFile: project, encoding: .utf8) == projectText)

        // A folder that cannot be made (a file stands in its place): cannot write, 73 as well.
        let fifth = try run(["import", "cut.edl", "-o", "project-as.edl/project.yaml"])
        #expect(fifth.status == 73)
        #expect(fifth.standardError.contains("Not a directory"), "\(fifth.standardError)")
    }

    @Test func importToJSONValidatesAndExportsBack() throws {
        _ = try Self.cut.get()
        let imported = try run(["import", "cut.edl", "-o", "project.json", "--media-dir", "."])
        try #require(imported.status == 0, "\(imported.standardError)")
        #expect(imported.standardOutput.contains("project.json: 3 clips on 1 track, 2 media (0 not found), 0 warnings"), "\(imported.standardOutput)")
        #expect(imported.standardError.isEmpty, "\(imported.standardError)")

        let data = try Data(contentsOf: Self.folder.appendingPathComponent("project.json"))
        let json = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        #expect(json["reel"] as? Int == 1)
        let media = try #require(json["media"] as? [String: Any])
        #expect(Set(media.keys) == ["REELA", "REELB"], "\(media)")
        let tracks = try #require(json["video"] as? [[String: Any]])
        let clips = try #require(tracks.first?["clips"] as? [[String: Any]])
        #expect(clips.compactMap { $0["name"] as? String } == ["a-first", "b-only", "a-second"])
        #expect(clips.compactMap { $0["media"] as? String } == ["REELA", "REELB", "REELA"])
        #expect(clips.first?["from"] as? String == "00:00:01:00", "\(clips)")

        let validated = try run(["validate", "project.json"])
        #expect(validated.status == 0, "\(validated.standardError)")
        #expect(validated.standardOutput.contains("project.json: valid (2.5s"), "\(validated.standardOutput)")

        // Back to an EDL: the same events, the sources at their timecodes again.
        let exported = try run(["export", "project.json", "-o", "back.edl"])
        try #require(exported.status == 0, "\(exported.standardError)")
        let back = InterchangeCommandTests.events(try String(contentsOf: Self.folder.appendingPathComponent("back.edl"), encoding: .utf8))
        let original = InterchangeCommandTests.events(InterchangeCommandTests.ownEDL)
        #expect(back.map(\.sourceIn) == original.map(\.sourceIn))
        #expect(back.map { $0.recordOut - $0.recordIn } == original.map { $0.recordOut - $0.recordIn })
        let otio = try run(["export", "project.json", "-o", "back.otio"])
        #expect(otio.status == 0, "\(otio.standardError)")
        let reimported = try run(["import", "back.otio", "-o", "again.yaml", "--media-dir", "."])
        #expect(reimported.status == 0, "\(reimported.standardError)")
        #expect(reimported.standardOutput.contains("3 clips on 1 track, 2 media (0 not found)"), "\(reimported.standardOutput)")
    }
}
