import Foundation
import TestSupport
import Testing

/// `reel batch` and typed `--set`/`--vars` as a user runs them, on 160x90 one-second projects.
@Suite(.serialized) struct BatchCommandTests {
    /// A fresh folder with a tiny template project, a clip made by ffmpeg and a CSV of rows.
    func folder(rows: String) throws -> URL {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("reel-batch-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let clip = try MediaFactory.file("batch-clip.mp4", ["-f", "lavfi", "-i", "testsrc2=size=160x90:rate=25:duration=1",
                                                            "-f", "lavfi", "-i", "sine=frequency=440:sample_rate=48000:duration=1",
                                                            "-c:v", "libx264", "-preset", "ultrafast", "-c:a", "aac", "-shortest"])
        try FileManager.default.copyItem(atPath: clip, toPath: dir.appendingPathComponent("clip.mp4").path)
        try """
        reel: 1
        vars:
          name: { type: string, default: Widget, max_length: 30 }
          colour: { type: color, default: "#ff3366" }
          seconds: { type: time, default: 0.5s, maximum: 1 }
        output: { size: [160, 90], fps: 25, video: { codec: h264, preset: ultrafast, crf: 30 }, metadata: { title: "{{ name }}" } }
        media: { clip: clip.mp4 }
        video:
          - clips:
              - color: "{{ colour }}"
                duration: "{{ seconds }}"
              - media: clip
                duration: 0.5s
        overlays:
          - rect: true
            position: ["50%", "50%"]
            size: [40, 20]
            fill: "{{ colour }}"
        """.write(to: dir.appendingPathComponent("project.yaml"), atomically: true, encoding: .utf8)
        try rows.write(to: dir.appendingPathComponent("rows.csv"), atomically: true, encoding: .utf8)
        return dir
    }

    static let rows = """
    id,name,colour
    a,Alpha,#000000
    b,"Beta, with a comma",white
    c,Bad,blurple
    d,Delta,#00ff00
    """

    func outputs(_ dir: URL) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: dir.appendingPathComponent("out").path)) ?? []).sorted()
    }

    /// A project with renditions: every row makes each of them, `{{ rendition }}` naming the
    /// file; each is up to date on its own; without `{{ rendition }}` the batch refuses at once.
    @Test func everyRowMakesEveryRendition() throws {
        let dir = try folder(rows: "id,name,colour\na,Alpha,#000000\nb,Beta,white\n")
        defer { try? FileManager.default.removeItem(at: dir) }
        let project = dir.appendingPathComponent("project.yaml")
        try String(contentsOf: project, encoding: .utf8)
            .replacingOccurrences(of: "media: { clip: clip.mp4 }", with: "renditions:\n  wide: {}\n  square: { size: [90, 90] }\nmedia: { clip: clip.mp4 }")
            .write(to: project, atomically: true, encoding: .utf8)
        let arguments = ["batch", "project.yaml", "--data", "rows.csv", "--output", "out/{{ id }}-{{ rendition }}.mp4"]
        let first = try ReelCommand.run(arguments, in: dir)
        #expect(first.status == 0, "\(first.standardError)")
        #expect(first.standardOutput.contains("batch: 4 rendered, 0 up to date, 0 failed"), "\(first.standardOutput)")
        for (id, rendition, width, height) in [("a", "wide", 160, 90), ("a", "square", 90, 90), ("b", "wide", 160, 90), ("b", "square", 90, 90)] {
            let probe = try MediaFactory.ffprobe(dir.appendingPathComponent("out/\(id)-\(rendition).mp4").path, ["-show_entries", "stream=width,height"])
            let video = (probe["streams"] as? [[String: Any]])?.first { $0["width"] != nil }
            #expect(video?["width"] as? Int == width && video?["height"] as? Int == height, "\(id)-\(rendition): \(String(describing: video))")
        }
        let again = try ReelCommand.run(arguments, in: dir)
        #expect(again.standardOutput.contains("batch: 0 rendered, 4 up to date, 0 failed"), "\(again.standardOutput)")
        let plan = try ReelCommand.run(arguments + ["--plan", "--json"], in: dir)
        #expect(plan.standardOutput.contains("\"rendition\" : \"square\""), "\(plan.standardOutput)")
        let unnamed = try ReelCommand.run(["batch", "project.yaml", "--data", "rows.csv", "--output", "out/{{ id }}.mp4"], in: dir)
        #expect(unnamed.status == 64)
        #expect(unnamed.standardError.contains("--output needs {{ rendition }}"), "\(unnamed.standardError)")
    }

    @Test func aBadRowIsReportedAndSkippedTheOthersRenderThenStayUpToDate() throws {
        let dir = try folder(rows: Self.rows)
        defer { try? FileManager.default.removeItem(at: dir) }
        let arguments = ["batch", "project.yaml", "--data", "rows.csv", "--output", "out/{{ id }}.mp4"]
        let first = try ReelCommand.run(arguments, in: dir)
        #expect(first.status == 65, "\(first.standardError)")
        #expect(first.standardError.contains("rows.csv:4:7: error: row 3: var 'colour' expects a colour"))
        #expect(first.standardError.contains("1 row skipped because of the errors above: row 3"))
        #expect(first.standardOutput.contains("batch: 3 rendered, 0 up to date, 0 failed, 1 invalid (row 3)"), "\(first.standardOutput)")
        #expect(outputs(dir) == [".reel", "a.mp4", "b.mp4", "d.mp4"])
        let title = try MediaFactory.ffprobe(dir.appendingPathComponent("out/b.mp4").path, ["-show_entries", "format_tags=title"])
        #expect((title["format"] as? [String: Any]).flatMap { $0["tags"] as? [String: Any] }?["title"] as? String == "Beta, with a comma")

        let again = try ReelCommand.run(arguments, in: dir)
        #expect(again.standardOutput.contains("batch: 0 rendered, 3 up to date, 0 failed, 1 invalid (row 3)"), "\(again.standardOutput)")

        // A changed value re-renders only its row; --force renders them all.
        try Self.rows.replacingOccurrences(of: "d,Delta", with: "d,Delta 2").write(to: dir.appendingPathComponent("rows.csv"), atomically: true, encoding: .utf8)
        let changed = try ReelCommand.run(arguments, in: dir)
        #expect(changed.standardOutput.contains("row 4: rendered out/d.mp4"))
        #expect(changed.standardOutput.contains("batch: 1 rendered, 2 up to date"), "\(changed.standardOutput)")
        let forced = try ReelCommand.run(arguments + ["--force"], in: dir)
        #expect(forced.standardOutput.contains("batch: 3 rendered, 0 up to date"), "\(forced.standardOutput)")
    }

    /// A spreadsheet's extra columns are ignored with one warning that names them (and says
    /// which look like a misspelt var); a name --output cannot fill is said once, before any
    /// row, with the name it was likely meant to be; `--plan --json` says `shard: null`.
    @Test func extraColumnsAreIgnoredAndAnOutputTypoIsSaidOnce() throws {
        let dir = try folder(rows: "id,name,colour,notes,secnods\na,Alpha,#000000,call Bob,1\nb,Beta,white,,0.2\n")
        defer { try? FileManager.default.removeItem(at: dir) }
        let plan = try ReelCommand.run(["batch", "project.yaml", "--data", "rows.csv", "--output", "out/{{ id }}.mp4", "--plan", "--json"], in: dir)
        #expect(plan.status == 0, "\(plan.standardError)")
        #expect(plan.standardError.components(separatedBy: "warning:").count == 2, "\(plan.standardError)")
        #expect(plan.standardError.contains("rows.csv:2:17: warning: columns 'notes', 'secnods' are not vars of the project nor used by --output: ignored"),
                "\(plan.standardError)")
        #expect(plan.standardError.contains("'secnods' looks like the var 'seconds'"), "\(plan.standardError)")
        let json = try JSONSerialization.jsonObject(with: Data(plan.standardOutput.utf8)) as? [String: Any]
        let rows = json?["rows"] as? [[String: Any]] ?? []
        #expect(rows.map { $0["status"] as? String } == ["render", "render"], "\(plan.standardOutput)")
        #expect(json?["shard"] is NSNull && rows.allSatisfy { $0["shard"] is NSNull }, "\(plan.standardOutput)")

        let typo = try ReelCommand.run(["batch", "project.yaml", "--data", "rows.csv", "--output", "out/{{ nmae }}.mp4", "--plan"], in: dir)
        #expect(typo.status == 64)
        #expect(typo.standardError.components(separatedBy: "error:").count == 2, "\(typo.standardError)")
        #expect(typo.standardError.contains("--output out/{{ nmae }}.mp4 uses {{ nmae }}, which is neither a var of the project nor a column of the data"))
        #expect(typo.standardError.contains("hint: did you mean 'name'?"), "\(typo.standardError)")
    }

    @Test func parallelJobsWriteTheSameBytes() throws {
        let dir = try folder(rows: "id,name,colour\na,A,#000000\nb,B,#ffffff\nc,C,#3366ff\n")
        defer { try? FileManager.default.removeItem(at: dir) }
        let one = try ReelCommand.run(["batch", "project.yaml", "--data", "rows.csv", "--output", "one/{{ id }}.mp4", "--jobs", "1"], in: dir)
        let two = try ReelCommand.run(["batch", "project.yaml", "--data", "rows.csv", "--output", "two/{{ id }}.mp4", "--jobs", "2"], in: dir)
        #expect(one.status == 0, "\(one.standardError)")
        #expect(two.status == 0, "\(two.standardError)")
        for id in ["a", "b", "c"] {
            let a = try Data(contentsOf: dir.appendingPathComponent("one/\(id).mp4"))
            let b = try Data(contentsOf: dir.appendingPathComponent("two/\(id).mp4"))
            #expect(a.count > 1000)
            #expect(a == b, "out \(id).mp4 differs between --jobs 1 and --jobs 2")
        }
    }

    @Test func shardsInAnyOrderRenderEveryRowOnceWithTheSameBytes() throws {
        let dir = try folder(rows: Self.rows)
        defer { try? FileManager.default.removeItem(at: dir) }
        let whole = try ReelCommand.run(["batch", "project.yaml", "--data", "rows.csv", "--output", "whole/{{ id }}.mp4"], in: dir)
        #expect(whole.status == 65, "\(whole.standardError)")
        var rendered: [String] = []
        for shard in ["1/2", "0/2"] {
            let run = try ReelCommand.run(["batch", "project.yaml", "--data", "rows.csv", "--output", "shards/{{ id }}.mp4", "--shard", shard], in: dir)
            rendered += run.standardOutput.split(separator: "\n").filter { $0.contains(": rendered ") }.map(String.init)
            // Row 3 (bad colour) falls to shard 0/2 (rows 1 and 3): only that shard reports it.
            #expect(run.status == (shard == "0/2" ? 65 : 0), "\(shard): \(run.standardError)")
            #expect(run.standardError.contains("row 3:") == (shard == "0/2"), "\(shard): \(run.standardError)")
        }
        #expect(rendered.sorted() == ["row 1: rendered shards/a.mp4", "row 2: rendered shards/b.mp4", "row 4: rendered shards/d.mp4"])
        for id in ["a", "b", "d"] {
            let a = try Data(contentsOf: dir.appendingPathComponent("whole/\(id).mp4"))
            #expect(a == (try Data(contentsOf: dir.appendingPathComponent("shards/\(id).mp4"))), "\(id).mp4 differs between the shards and the whole batch")
        }

        // --plan --json: the shard's rows with their outputs, keys and states; nothing rendered.
        let plan = try ReelCommand.run(["batch", "project.yaml", "--data", "rows.csv", "--output", "shards/{{ id }}.mp4",
                                        "--shard", "0/2", "--plan", "--json"], in: dir)
        #expect(plan.status == 0, "\(plan.standardError)")
        let listing = try JSONSerialization.jsonObject(with: Data(plan.standardOutput.utf8)) as? [String: Any]
        #expect(listing?["rowCount"] as? Int == 4)
        #expect(listing?["shards"] as? Int == 2)
        let rows = listing?["rows"] as? [[String: Any]] ?? []
        #expect(rows.map { $0["row"] as? Int } == [1, 3])
        #expect(rows.map { $0["status"] as? String } == ["up to date", "invalid"])
        #expect(rows.first?["output"] as? String == "shards/a.mp4")
        #expect((rows.first?["key"] as? String)?.count == 64)
        #expect(rows.last?["exitStatus"] as? Int == 65)
        #expect((rows.last?["errors"] as? [String])?.first?.hasPrefix("rows.csv:4:7: error: row 3: var 'colour'") == true)
        let bad = try ReelCommand.run(["batch", "project.yaml", "--data", "rows.csv", "--output", "x/{{ id }}.mp4", "--shard", "2/2"], in: dir)
        #expect(bad.status == 64)
        #expect(bad.standardError.contains("--shard 2/2: shards of 2 are numbered 0 to 1"), "\(bad.standardError)")
    }

    @Test func aRowThatFailsWhileRenderingDoesNotStopTheOthers() throws {
        let dir = try folder(rows: "id,name\na,A\nb,B\n")
        defer { try? FileManager.default.removeItem(at: dir) }
        // Row b's output path is a folder: its render fails after every row was validated.
        try FileManager.default.createDirectory(at: dir.appendingPathComponent("out/b.mp4"), withIntermediateDirectories: true)
        let run = try ReelCommand.run(["batch", "project.yaml", "--data", "rows.csv", "--output", "out/{{ id }}.mp4"], in: dir)
        #expect(run.status == 1)
        #expect(run.standardOutput.contains("row 2: FAILED out/b.mp4"), "\(run.standardOutput)")
        #expect(run.standardOutput.contains("batch: 1 rendered, 0 up to date, 1 failed (row 2), 0 invalid"), "\(run.standardOutput)")
        #expect(FileManager.default.fileExists(atPath: dir.appendingPathComponent("out/a.mp4").path))
    }

    @Test func validateChecksSetAndVarsFileValuesAgainstTheTypes() throws {
        let dir = try folder(rows: "id\n")
        defer { try? FileManager.default.removeItem(at: dir) }
        let bad = try ReelCommand.run(["validate", "project.yaml", "--set", "colour=teal", "--set", "seconds=2s"], in: dir)
        #expect(bad.status == 65)
        #expect(bad.standardError.contains("--set: error: var 'colour' expects a colour"))
        #expect(bad.standardError.contains("--set: error: var 'seconds' must be at most 1 s; got '2s'"))
        try "name: 42\ncolour: [1, 2]\n".write(to: dir.appendingPathComponent("vars.yaml"), atomically: true, encoding: .utf8)
        let file = try ReelCommand.run(["validate", "project.yaml", "--vars", "vars.yaml"], in: dir)
        #expect(file.status == 65)
        #expect(file.standardError.contains("vars.yaml:2:9: error: var 'colour' expects a colour"), "\(file.standardError)")
        // --set wins over --vars: the file's bad colour is never used.
        let fixed = try ReelCommand.run(["validate", "project.yaml", "--vars", "vars.yaml", "--set", "colour=#123456"], in: dir)
        #expect(fixed.status == 0, "\(fixed.standardError)")
        let missing = try ReelCommand.run(["validate", "project.yaml", "--vars", "nope.yaml"], in: dir)
        #expect(missing.status == 66)
    }

    /// Cell values cannot escape the output folder or the command line of the child render: a
    /// name starting with '-' is a file name, not an option; '/', '..', line breaks and NUL are
    /// refused with the row and column.
    @Test func hostileCellsStayInTheirPlace() throws {
        let rows = "id,name\n-dash,Dash\n../up,Up\nnl,\"two\nlines\"\nok,\"{{ name }}\"\n"
        let dir = try folder(rows: rows)
        defer { try? FileManager.default.removeItem(at: dir) }
        try FileManager.default.createDirectory(at: dir.appendingPathComponent("out"), withIntermediateDirectories: true)
        let run = try ReelCommand.run(["batch", "../project.yaml", "--data", "../rows.csv", "--output", "{{ id }}.mp4"],
                                      in: dir.appendingPathComponent("out"))
        #expect(run.status == 65, "\(run.standardError)")
        #expect(run.standardError.contains("row 2: the value of 'id' ('../up') holds '/'"), "\(run.standardError)")
        #expect(run.standardError.contains("row 4: the value given for var 'name' uses {{ }}"), "\(run.standardError)")
        #expect(run.standardOutput.contains("batch: 2 rendered"), "\(run.standardOutput)")
        #expect(outputs(dir) == ["-dash.mp4", ".reel", "nl.mp4"])
        #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("up.mp4").path))
        let nul = try folder(rows: "id,name\nz,\"a\u{0}b\"\n")
        defer { try? FileManager.default.removeItem(at: nul) }
        let refused = try ReelCommand.run(["batch", "project.yaml", "--data", "rows.csv", "--output", "out/{{ id }}.mp4"], in: nul)
        #expect(refused.status == 65 && refused.standardError.contains("rows.csv:2:3: error: row 1: the value given for var 'name' holds a NUL character"),
                "\(refused.standardError)")
    }

    /// A cell longer than one command-line argument may be (128 KiB on Linux) renders: long
    /// texts reach the row's render through a vars file, not as --set.
    @Test func aLongCellRendersLikeAShortOne() throws {
        let dir = try folder(rows: "")
        defer { try? FileManager.default.removeItem(at: dir) }
        try """
        reel: 1
        vars:
          note: { type: string }
        output: { size: [160, 90], fps: 25, video: { codec: h264, preset: ultrafast, crf: 30 }, metadata: { comment: "{{ note }}" } }
        media: { clip: clip.mp4 }
        video: [{ clips: [{ media: clip, duration: 0.5s }] }]
        """.write(to: dir.appendingPathComponent("notes.yaml"), atomically: true, encoding: .utf8)
        let long = String(repeating: "a long note ", count: 200 << 10 / 12)
        try "id,note\nlong,\(long)\nshort,brief\n".write(to: dir.appendingPathComponent("notes.csv"), atomically: true, encoding: .utf8)
        let run = try ReelCommand.run(["batch", "notes.yaml", "--data", "notes.csv", "--output", "out/{{ id }}.mp4"], in: dir)
        #expect(run.status == 0, "\(run.standardError)")
        #expect(run.standardOutput.contains("batch: 2 rendered"), "\(run.standardOutput)")
        let comment = try MediaFactory.run("ffprobe", ["-v", "error", "-show_entries", "format_tags=comment", "-of", "default=nw=1:nk=1",
                                                       dir.appendingPathComponent("out/long.mp4").path])
        #expect(comment.trimmingCharacters(in: .whitespacesAndNewlines) == long.trimmingCharacters(in: .whitespaces))
    }
}
