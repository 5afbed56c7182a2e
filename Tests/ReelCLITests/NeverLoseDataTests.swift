import Foundation
import TestSupport
import Testing

/// A project folder with one file of every kind a project reads:
///
///     project.yaml  vars.yaml  fonts/Mono.ttf
///     media/clip.mp4  media/music.wav  media/logo.png  media/star.svg
///
/// and `long.yaml`, a 30-second 320x180 render (about 1.5 s in a debug build) for the tests
/// that stop, kill or race renders; `lossless.yaml` is the same at crf 0, an output large
/// enough that joining its cached segments lasts long enough to be stopped in.
struct SafetyFolder {
    let url: URL
    var path: String { url.path }

    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("reel-never-lose-\(UUID().uuidString)")
        let fm = FileManager.default
        try fm.createDirectory(at: url.appendingPathComponent("media"), withIntermediateDirectories: true)
        try fm.createDirectory(at: url.appendingPathComponent("fonts"), withIntermediateDirectories: true)
        let clip = try MediaFactory.file("safety-clip.mp4", ["-f", "lavfi", "-i", "testsrc2=size=160x90:rate=25:duration=1",
                                                             "-c:v", "libx264", "-preset", "ultrafast"])
        let long = try MediaFactory.file("safety-long.mp4", ["-f", "lavfi", "-i", "testsrc2=size=320x180:rate=25:duration=30",
                                                             "-c:v", "libx264", "-preset", "ultrafast", "-g", "25"])
        let music = try MediaFactory.file("safety-music.wav", ["-f", "lavfi", "-i", "sine=frequency=440:sample_rate=48000:duration=1"])
        let logo = try MediaFactory.file("safety-logo.png", ["-f", "lavfi", "-i", "color=red:size=32x32", "-frames:v", "1"])
        for (source, name) in [(clip, "media/clip.mp4"), (long, "media/long.mp4"), (music, "media/music.wav"), (logo, "media/logo.png"),
                               (repositoryRoot.appendingPathComponent("Examples/showcase/star.svg").path, "media/star.svg"),
                               (repositoryRoot.appendingPathComponent("Examples/showcase/fonts/DejaVuSansMono-Oblique.ttf").path, "fonts/Mono.ttf")] {
            try fm.copyItem(atPath: source, toPath: url.appendingPathComponent(name).path)
        }
        try """
        reel: 1
        vars:
          title: { type: string, default: One }
        fonts: [fonts/Mono.ttf]
        output: { size: [160, 90], fps: 25, video: { codec: h264, preset: ultrafast, crf: 30 } }
        media:
          clip: media/clip.mp4
          music: media/music.wav
          logo: media/logo.png
          star: media/star.svg
        video:
          - clips:
              - media: clip
        audio:
          - clips:
              - media: music
        overlays:
          - text: "{{ title }}"
            position: ["50%", "50%"]
            style: { font: DejaVu Sans Mono, style: italic, size: 20 }
          - image: logo
            position: [20, 20]
            size: [16, 16]
          - svg: star
            position: [140, 20]
            size: [16, 16]
        """.write(to: url.appendingPathComponent("project.yaml"), atomically: true, encoding: .utf8)
        try """
        reel: 1
        vars:
          title: { type: string, default: One }
        output: { size: [320, 180], fps: 25, video: { codec: h264, preset: ultrafast, crf: 30 } }
        media: { clip: media/long.mp4 }
        video:
          - clips:
              - media: clip
        overlays:
          - text: "{{ title }}"
            position: ["50%", "50%"]
            style: { font: DejaVu Sans, size: 30 }
        """.write(to: url.appendingPathComponent("long.yaml"), atomically: true, encoding: .utf8)
        try String(contentsOf: url.appendingPathComponent("long.yaml"), encoding: .utf8).replacingOccurrences(of: "crf: 30", with: "crf: 0")
            .write(to: url.appendingPathComponent("lossless.yaml"), atomically: true, encoding: .utf8)
        try "title: Two\n".write(to: url.appendingPathComponent("vars.yaml"), atomically: true, encoding: .utf8)
    }

    func file(_ name: String) -> String { url.appendingPathComponent(name).path }

    func bytes(_ name: String) throws -> Data { try Data(contentsOf: url.appendingPathComponent(name)) }

    /// Every file in the folder (recursively, not into linked folders) with its bytes, and every
    /// symlink with where it leads: what must not change.
    func snapshot() throws -> [String: Data] {
        var files: [String: Data] = [:]
        func walk(_ relative: String) throws {
            for name in try FileManager.default.contentsOfDirectory(atPath: file(relative)) {
                let item = relative.isEmpty ? name : relative + "/" + name
                switch try FileManager.default.attributesOfItem(atPath: file(item))[.type] as? FileAttributeType {
                case .typeDirectory?: try walk(item)
                case .typeSymbolicLink?: files[item] = Data(("-> " + (try FileManager.default.destinationOfSymbolicLink(atPath: file(item)))).utf8)
                default: files[item] = try bytes(item)
                }
            }
        }
        try walk("")
        return files
    }

    /// Hidden temporary files (`.NAME.partial`) anywhere in the folder.
    func partialFiles() -> [String] {
        ((try? snapshot()) ?? [:]).keys.filter { $0.hasSuffix(".partial") }.sorted()
    }

    func remove() { try? FileManager.default.removeItem(at: url) }
}

/// `reel render -o`, the project's `output.path`, `reel frame`, `reel thumbnails`, `reel graph --html`
/// and `reel probe --frame -o` never write over a file they read: exit 73 before any work, naming
/// the output, the input and its role; every file stays as it was.
@Suite struct OutputIsNeverAnInputTests {
    func expectRefusal(_ arguments: [String], in folder: SafetyFolder, output: String, input: String, role: String,
                       sourceLocation: SourceLocation = #_sourceLocation) throws {
        let before = try folder.snapshot()
        let run = try ReelCommand.run(arguments, in: folder.url)
        #expect(run.status == 73, "\(arguments): \(run.standardError)", sourceLocation: sourceLocation)
        let message = run.standardError
        #expect(message.hasPrefix("error: will not write \(output): "), "\(message)", sourceLocation: sourceLocation)
        #expect(message.contains(input) && message.contains(role), "\(message)", sourceLocation: sourceLocation)
        #expect(try folder.snapshot() == before, "files changed after \(arguments)", sourceLocation: sourceLocation)
        #expect(folder.partialFiles().isEmpty, sourceLocation: sourceLocation)
    }

    @Test func renderRefusesEveryFileTheProjectReads() throws {
        let folder = try SafetyFolder()
        defer { folder.remove() }
        let cases: [(output: String, input: String, role: String)] = [
            ("media/clip.mp4", "/media/clip.mp4", "the project's video 'clip'"),
            ("media/music.wav", "/media/music.wav", "the project's audio 'music'"),
            ("media/logo.png", "/media/logo.png", "the project's image 'logo'"),
            ("media/star.svg", "/media/star.svg", "the project's SVG 'star'"),
            ("fonts/Mono.ttf", "/fonts/Mono.ttf", "a font file in the project's fonts:"),
            ("project.yaml", "project.yaml", "the project file"),
            ("vars.yaml", "vars.yaml", "the vars file (--vars)"),
        ]
        for c in cases {
            try expectRefusal(["render", "project.yaml", "--vars", "vars.yaml", "-o", c.output], in: folder,
                              output: c.output, input: c.input, role: c.role)
        }
    }

    @Test func symlinksHardLinksAndOtherPathsAreSeenThrough() throws {
        let folder = try SafetyFolder()
        defer { folder.remove() }
        let fm = FileManager.default
        try fm.createDirectory(atPath: folder.file("out"), withIntermediateDirectories: true)
        try fm.createSymbolicLink(atPath: folder.file("out/link.mp4"), withDestinationPath: folder.file("media/clip.mp4"))
        try fm.createSymbolicLink(atPath: folder.file("linked"), withDestinationPath: folder.file("media"))
        try fm.linkItem(atPath: folder.file("media/logo.png"), toPath: folder.file("out/hard.png"))
        try expectRefusal(["render", "project.yaml", "-o", "out/link.mp4"], in: folder, output: "out/link.mp4",
                          input: "/media/clip.mp4", role: "the project's video 'clip'")
        try expectRefusal(["render", "project.yaml", "-o", "out/hard.png"], in: folder, output: "out/hard.png",
                          input: "/media/logo.png", role: "the project's image 'logo'")
        try expectRefusal(["render", "project.yaml", "-o", "out/../media/./music.wav"], in: folder, output: "out/../media/./music.wav",
                          input: "/media/music.wav", role: "the project's audio 'music'")
        try expectRefusal(["render", "project.yaml", "-o", "linked/star.svg"], in: folder, output: "linked/star.svg",
                          input: "/media/star.svg", role: "the project's SVG 'star'")
        // `..` after a linked folder climbs from where the link leads.
        try expectRefusal(["render", "project.yaml", "-o", "linked/../project.yaml"], in: folder, output: "linked/../project.yaml",
                          input: "project.yaml", role: "the project file")
        let absolute = folder.file("out/../fonts/Mono.ttf")
        try expectRefusal(["render", "project.yaml", "-o", absolute], in: folder, output: absolute,
                          input: "/fonts/Mono.ttf", role: "a font file in the project's fonts:")
    }

    /// An image sequence is read file by file, and an output pattern would write over (or remove,
    /// as stale frames) every file of its folder that it names.
    @Test func imageSequenceInputsAreNeverWrittenOver() throws {
        let folder = try SafetyFolder()
        defer { folder.remove() }
        try FileManager.default.createDirectory(atPath: folder.file("media/shots"), withIntermediateDirectories: true)
        _ = try MediaFactory.run("ffmpeg", ["-v", "error", "-y", "-f", "lavfi", "-i", "testsrc2=size=160x90:rate=25", "-frames:v", "3",
                                            "-start_number", "1", folder.file("media/shots/f%03d.png")])
        try """
        reel: 1
        output: { size: [160, 90], fps: 25 }
        media: { shots: media/shots/f%03d.png }
        video:
          - clips:
              - media: shots
        """.write(to: folder.url.appendingPathComponent("sequence.yaml"), atomically: true, encoding: .utf8)
        let role = "the project's video 'shots'"
        try expectRefusal(["render", "sequence.yaml", "-o", "media/shots/f002.png"], in: folder, output: "media/shots/f002.png",
                          input: "/media/shots/f002.png", role: role)
        for pattern in ["media/shots/f%03d.png", "media/../media/shots/f%03d.png"] {
            try expectRefusal(["render", "sequence.yaml", "-o", pattern], in: folder, output: pattern,
                              input: "/media/shots/f001.png", role: role)
        }
        // Another width names other files (f0001.png, f1.png; FFmpeg writes and reads a number
        // only under the name its pattern gives it): written beside the inputs, which stay as they were.
        let inputs = try (1...3).map { try Data(contentsOf: URL(fileURLWithPath: folder.file(String(format: "media/shots/f%03d.png", $0)))) }
        for (pattern, first) in [("media/shots/f%04d.png", "media/shots/f0001.png"), ("media/shots/f%d.png", "media/shots/f1.png")] {
            let run = try ReelCommand.run(["render", "sequence.yaml", "-o", pattern, "--progress", "none"], in: folder.url)
            #expect(run.status == 0, "\(run.standardError)")
            #expect(FileManager.default.fileExists(atPath: folder.file(first)))
            #expect(try (1...3).map { try Data(contentsOf: URL(fileURLWithPath: folder.file(String(format: "media/shots/f%03d.png", $0)))) } == inputs)
        }
        let elsewhere = try ReelCommand.run(["render", "sequence.yaml", "-o", "media/shots/g%03d.png", "--progress", "none"], in: folder.url)
        #expect(elsewhere.status == 0, "\(elsewhere.standardError)")
        #expect(FileManager.default.fileExists(atPath: folder.file("media/shots/g003.png")))
    }

    @Test func theProjectsOwnOutputPathIsCheckedToo() throws {
        let folder = try SafetyFolder()
        defer { folder.remove() }
        let text = try String(contentsOf: folder.url.appendingPathComponent("project.yaml"), encoding: .utf8)
        try text.replacingOccurrences(of: "output: { size", with: "output: { path: media/clip.mp4, size")
            .write(to: folder.url.appendingPathComponent("project.yaml"), atomically: true, encoding: .utf8)
        try expectRefusal(["render", "project.yaml"], in: folder, output: folder.file("media/clip.mp4"),
                          input: "/media/clip.mp4", role: "the project's video 'clip'")
    }

    @Test func stillWritersRefuseTheirInputs() throws {
        let folder = try SafetyFolder()
        defer { folder.remove() }
        try FileManager.default.createSymbolicLink(atPath: folder.file("clip-link.mp4"), withDestinationPath: folder.file("media/clip.mp4"))
        try expectRefusal(["frame", "project.yaml", "--at", "0.5s", "-o", "media/logo.png"], in: folder, output: "media/logo.png",
                          input: "/media/logo.png", role: "the project's image 'logo'")
        try expectRefusal(["frame", "project.yaml", "--vars", "vars.yaml", "--at", "0.5s", "-o", "vars.yaml"], in: folder, output: "vars.yaml",
                          input: "vars.yaml", role: "the vars file (--vars)")
        try expectRefusal(["thumbnails", "project.yaml", "--count", "2", "--sheet", "project.yaml"], in: folder, output: "project.yaml",
                          input: "project.yaml", role: "the project file")
        try expectRefusal(["graph", "project.yaml", "--html", "media/star.svg"], in: folder, output: "media/star.svg",
                          input: "/media/star.svg", role: "the project's SVG 'star'")
        try expectRefusal(["probe", "clip-link.mp4", "--frame", "0.5s", "-o", "media/clip.mp4"], in: folder, output: "media/clip.mp4",
                          input: "clip-link.mp4", role: "the probed file")
        // Thumbnails into the media folder: frame-N.png is refused when it is an image the project reads.
        try FileManager.default.copyItem(atPath: folder.file("media/logo.png"), toPath: folder.file("media/frame-12.png"))
        let text = try String(contentsOf: folder.url.appendingPathComponent("project.yaml"), encoding: .utf8)
        try text.replacingOccurrences(of: "logo: media/logo.png", with: "logo: media/frame-12.png")
            .write(to: folder.url.appendingPathComponent("project.yaml"), atomically: true, encoding: .utf8)
        let frame12 = URL(fileURLWithPath: folder.file("media")).appendingPathComponent("frame-12.png").path
        try expectRefusal(["thumbnails", "project.yaml", "--every", "0.48s", "-o", folder.file("media")], in: folder, output: frame12,
                          input: "/media/frame-12.png", role: "the project's image 'logo'")
    }

    @Test func aFolderIsNotAnOutputFile() throws {
        let folder = try SafetyFolder()
        defer { folder.remove() }
        for (arguments, output, example) in [
            (["render", "project.yaml", "-o", "media"], "media", "media/out.mp4"),
            (["render", "project.yaml", "-o", "."], ".", "./out.mp4"),
            (["render", "project.yaml", "-o", "new/"], "new/", "new/out.mp4"),
            (["frame", "project.yaml", "--at", "0s", "-o", "fonts"], "fonts", "fonts/frame.png"),
        ] {
            let run = try ReelCommand.run(arguments, in: folder.url)
            #expect(run.status == 73, "\(arguments): \(run.standardError)")
            #expect(run.standardError == "error: \(output) is a folder, not a file: name the file to write in it, e.g. \(example)\n")
        }
        #expect(!FileManager.default.fileExists(atPath: folder.file("new")))
        #expect(folder.partialFiles().isEmpty)
    }

    @Test func anOrdinaryOutputIsWritten() throws {
        let folder = try SafetyFolder()
        defer { folder.remove() }
        let run = try ReelCommand.run(["render", "project.yaml", "--vars", "vars.yaml", "-o", "media/render.mp4", "--progress", "none"], in: folder.url)
        #expect(run.status == 0, "\(run.standardError)")
        #expect(try folder.bytes("media/render.mp4").count > 1000)
        #expect(folder.partialFiles().isEmpty)
    }
}

/// `reel batch`: a row whose output is a file the batch reads (the project, the rows file, its
/// own or another row's media) and rows writing one file are rejected before the first render
/// with exit 73; the other rows render.
@Suite struct BatchOutputSafetyTests {
    @Test func rowsWritingInputsOrEachOthersFilesAreRejectedBeforeAnyRender() throws {
        let folder = try SafetyFolder()
        defer { folder.remove() }
        try FileManager.default.createDirectory(atPath: folder.file("out"), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: folder.file("same"), withDestinationPath: folder.file("out"))
        try FileManager.default.createSymbolicLink(atPath: folder.file("top"), withDestinationPath: folder.path)
        // The template picks the folder and the name; `picture` is the logo's path.
        let text = try String(contentsOf: folder.url.appendingPathComponent("project.yaml"), encoding: .utf8)
        try text.replacingOccurrences(of: "  title: { type: string, default: One }", with: "  title: { type: string, default: One }\n  picture: { type: path, default: media/logo.png }")
            .replacingOccurrences(of: "logo: media/logo.png", with: "logo: \"{{ picture }}\"")
            .write(to: folder.url.appendingPathComponent("project.yaml"), atomically: true, encoding: .utf8)
        try FileManager.default.copyItem(atPath: folder.file("media/logo.png"), toPath: folder.file("out/other.png"))
        try """
        dir,name,picture
        out,fine.mp4,
        media,clip.mp4,
        out,other.png,
        out,row4.mp4,out/other.png
        top,rows.csv,
        top,project.yaml,
        out,twice.mp4,
        same,twice.mp4,
        """.write(to: folder.url.appendingPathComponent("rows.csv"), atomically: true, encoding: .utf8)
        let before = try folder.snapshot()
        let run = try ReelCommand.run(["batch", "project.yaml", "--data", "rows.csv", "--output", "{{ dir }}/{{ name }}"], in: folder.url)
        #expect(run.status == 73, "\(run.standardError)")
        let errors = run.standardError
        // Every row reads the clip; the message names the first.
        #expect(errors.contains("row 2: will not write media/clip.mp4: it is \(folder.file("media/clip.mp4")), row 1's video 'clip'"), "\(errors)")
        #expect(errors.contains("row 3: will not write out/other.png: it is \(folder.file("out/other.png")), row 4's image 'logo'"), "\(errors)")
        #expect(errors.contains("row 5: will not write top/rows.csv: it is another path to rows.csv, the rows file (--data)"), "\(errors)")
        #expect(errors.contains("row 6: will not write top/project.yaml: it is another path to project.yaml, the project file"), "\(errors)")
        #expect(errors.contains("row 7: writes out/twice.mp4, as row 8 (same/twice.mp4) does"), "\(errors)")
        #expect(errors.contains("row 8: writes same/twice.mp4, as row 7 (out/twice.mp4) does"), "\(errors)")
        #expect(errors.contains("6 rows skipped because of the errors above: rows 2, 3, 5, 6, 7, 8"), "\(errors)")
        #expect(run.standardOutput.contains("batch: 2 rendered, 0 up to date, 0 failed, 6 invalid (rows 2, 3, 5, 6, 7, 8)"), "\(run.standardOutput)")
        // Every file that was there is as it was; the two good rows wrote theirs.
        let after = try folder.snapshot()
        #expect(after.filter { before[$0.key] != nil } == before)
        #expect(Set(after.keys).subtracting(before.keys) == ["out/fine.mp4", "out/.reel/fine.mp4.reel-hash", "out/row4.mp4", "out/.reel/row4.mp4.reel-hash"])
        #expect(folder.partialFiles().isEmpty)
    }
}

/// Temporary files and renders racing for one output, with real `reel render` processes.
@Suite(.serialized) struct KilledAndRacingRenderTests {
    /// Starts `reel <arguments>` in `folder` without waiting; its standard error goes to a file.
    final class Running {
        let process = Process()
        let errors: URL

        init(_ arguments: [String], in folder: SafetyFolder) throws {
            errors = folder.url.appendingPathComponent("stderr-\(UUID().uuidString).txt")
            _ = FileManager.default.createFile(atPath: errors.path, contents: nil)
            process.executableURL = ReelCommand.executable
            process.arguments = arguments
            process.currentDirectoryURL = folder.url
            process.standardOutput = FileHandle.nullDevice
            process.standardError = try FileHandle(forWritingTo: errors)
            try process.run()
        }

        func finish() -> (status: Int32, errors: String) {
            process.waitUntilExit()
            defer { try? FileManager.default.removeItem(at: errors) }
            return (process.terminationStatus, (try? String(contentsOf: errors, encoding: .utf8)) ?? "")
        }
    }

    /// Frames of the video stream, counted by decoding.
    func frameCount(_ path: String) throws -> Int? {
        let probe = try MediaFactory.ffprobe(path, ["-count_frames", "-select_streams", "v:0", "-show_entries", "stream=nb_read_frames"])
        return ((probe["streams"] as? [[String: Any]])?.first?["nb_read_frames"] as? String).flatMap { Int($0) }
    }

    func identity(_ path: String) -> (UInt64, UInt64)? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return (UInt64(info.st_dev), UInt64(info.st_ino))
    }

    @Test func aKilledRendersTemporaryFileIsRemovedByTheNextRender() throws {
        let folder = try SafetyFolder()
        defer { folder.remove() }
        let partial = folder.file(".out.mp4.partial")
        // Killed as its temporary file appears: the join of the segments, which must last
        // longer than the kill takes to arrive (a lossless output, as below).
        let killed = try Running(["render", "lossless.yaml", "-o", "out.mp4", "--progress", "none"], in: folder)
        let appeared = FileEvents.waitForFile(partial, timeout: 60)
        kill(killed.process.processIdentifier, SIGKILL)
        let end = killed.finish()
        try #require(appeared, "the render never created \(partial)")
        #expect(end.status == SIGKILL && killed.process.terminationReason == .uncaughtSignal)
        #expect(FileManager.default.fileExists(atPath: partial), "SIGKILL leaves the temporary file behind")
        #expect(!FileManager.default.fileExists(atPath: folder.file("out.mp4")))

        let next = try ReelCommand.run(["render", "lossless.yaml", "-o", "out.mp4", "--progress", "none"], in: folder.url)
        #expect(next.status == 0, "\(next.standardError)")
        #expect(folder.partialFiles().isEmpty)
        #expect(try frameCount(folder.file("out.mp4")) == 750)
    }

    @Test func aSecondRenderOfAnOutputBeingWrittenFailsClearlyAndLeavesTheFirstAlone() throws {
        let folder = try SafetyFolder()
        defer { folder.remove() }
        let reference = try ReelCommand.run(["render", "lossless.yaml", "-o", "reference.mp4", "--progress", "none"], in: folder.url)
        try #require(reference.status == 0, "\(reference.standardError)")

        let partial = folder.file(".out.mp4.partial")
        let first = try Running(["render", "lossless.yaml", "-o", "out.mp4", "--progress", "none"], in: folder)
        // The writer creates its temporary file, then locks it; stopped while it holds the lock,
        // the second render surely meets it. The file is made for the join of the cached
        // segments, which for a small output a release build ends in a millisecond or two,
        // sooner than a loaded test process stops it: so the output is large (lossless), the
        // render is stopped as the file appears, then let run in the shortest slices until the
        // lock is held.
        let appeared = FileEvents.waitForFile(partial, timeout: 60)
        kill(first.process.processIdentifier, SIGSTOP)
        defer { kill(first.process.processIdentifier, SIGCONT) }
        try #require(appeared, "the render never created \(partial)")
        let slicesUntil = ProcessInfo.processInfo.systemUptime + 30
        while !Self.isLocked(partial), FileManager.default.fileExists(atPath: partial), ProcessInfo.processInfo.systemUptime < slicesUntil {
            kill(first.process.processIdentifier, SIGCONT)
            usleep(1)
            kill(first.process.processIdentifier, SIGSTOP)
        }
        // kill(2) only sends the signal: the size is read once every thread has stopped.
        try NoCacheRaceTests.stop(first.process)
        let held = try #require(identity(partial), "the first render finished before it was stopped with its lock held")
        let size = try FileManager.default.attributesOfItem(atPath: partial)[.size] as? Int

        let second = try ReelCommand.run(["render", "lossless.yaml", "--set", "title=Two", "-o", "out.mp4", "--progress", "none"], in: folder.url)
        #expect(second.status == 73, "\(second.standardError)")
        #expect(second.standardError.contains("error: cannot write out.mp4: another process (pid \(first.process.processIdentifier)) is writing this file now"),
                "\(second.standardError)")
        #expect(second.standardError.contains(partial))
        #expect(identity(partial).map { $0 == held } == true, "the first render's temporary file was replaced")
        #expect(try FileManager.default.attributesOfItem(atPath: partial)[.size] as? Int == size, "the first render's temporary file was changed")

        kill(first.process.processIdentifier, SIGCONT)
        let end = first.finish()
        #expect(end.status == 0, "\(end.errors)")
        #expect(try folder.bytes("out.mp4") == folder.bytes("reference.mp4"))
        #expect(folder.partialFiles().isEmpty)
    }

    /// Whether another process holds an exclusive `flock` on `path` (its writer's lock).
    static func isLocked(_ path: String) -> Bool {
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        return flock(fd, LOCK_SH | LOCK_NB) != 0 && errno == EWOULDBLOCK
    }

    @Test func twoRendersOfOneOutputAtOnceLeaveOneCompleteFileFromOneOfThem() throws {
        let folder = try SafetyFolder()
        defer { folder.remove() }
        // Different titles, so the two renders' files differ and a mix of them would show.
        for title in ["One", "Two"] {
            let run = try ReelCommand.run(["render", "long.yaml", "--set", "title=\(title)", "-o", "\(title).mp4", "--progress", "none"], in: folder.url)
            try #require(run.status == 0, "\(run.standardError)")
        }
        let one = try folder.bytes("One.mp4"), two = try folder.bytes("Two.mp4")
        try #require(one != two)

        let a = try Running(["render", "long.yaml", "--set", "title=One", "-o", "same.mp4", "--progress", "none"], in: folder)
        let b = try Running(["render", "long.yaml", "--set", "title=Two", "-o", "same.mp4", "--progress", "none"], in: folder)
        let endA = a.finish(), endB = b.finish()
        for end in [endA, endB] {
            #expect(end.status == 0 || (end.status == 73 && end.errors.contains("is writing this file now")), "\(end.status): \(end.errors)")
        }
        #expect(endA.status == 0 || endB.status == 0)
        let result = try folder.bytes("same.mp4")
        #expect(result == one || result == two, "the output is neither render's file")
        if endA.status != 0 { #expect(result == two) }
        if endB.status != 0 { #expect(result == one) }
        #expect(try frameCount(folder.file("same.mp4")) == 750)
        #expect(folder.partialFiles().isEmpty)
    }
}

/// Waiting for files to appear, with inotify (no polling).
enum FileEvents {
    /// True once `path` exists; false after `timeout` seconds.
    static func waitForFile(_ path: String, timeout: Double) -> Bool {
        waitFor(path, timeout: timeout) { FileManager.default.fileExists(atPath: $0) }
    }

    /// True once `path` holds at least one byte; false after `timeout` seconds.
    /// True once `condition(path)` holds, checked whenever a file in `path`'s folder is created,
    /// moved in or written; false after `timeout` seconds.
    static func waitFor(_ path: String, timeout: Double, _ condition: (String) -> Bool) -> Bool {
        let folder = URL(fileURLWithPath: path).deletingLastPathComponent().path
        let fd = inotify_init1(Int32(IN_CLOEXEC))
        guard fd >= 0 else { return false }
        defer { close(fd) }
        guard inotify_add_watch(fd, folder, UInt32(IN_CREATE | IN_MOVED_TO | IN_MODIFY)) >= 0 else { return false }
        let deadline = ProcessInfo.processInfo.systemUptime + timeout
        var buffer = [UInt8](repeating: 0, count: 4096)
        while !condition(path) {
            let left = deadline - ProcessInfo.processInfo.systemUptime
            guard left > 0 else { return false }
            var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard poll(&poller, 1, Int32(left * 1000)) > 0 else { continue }
            _ = read(fd, &buffer, buffer.count)
        }
        return true
    }
}
