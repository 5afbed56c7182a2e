import AtomicFiles
import Batch
import CompositionGraph
import FileSafety
import Foundation
import Interchange
import MediaIO
import MediaTime
import ProjectFile
import ReelApplication
import RenderEngine
import TestSupport
import Synchronization
import Testing

/// The work front ends share, in-process: validating every rendition, planning, batches,
/// exporting a timeline, stills of media files, thumbnails, child processes, and what kind of
/// failure an error is. (The command line's own tests run the binary; these need none.)
@Suite struct FrontEndWorkTests {
    static var folder: URL { WorkspaceTests.folder }

    @Test func everyRenditionIsCheckedOnItsOwn() throws {
        let extra = """
            vars: { length: 1s }
            renditions:
              wide: {}
              short: { vars: { length: 0.5s } }
              broken: { vars: { length: abc } }
            overlays: [{ text: Hi, duration: "{{ length }}" }]
            """
        let (_, document) = try WorkspaceTests.project("renditions.yaml", extra: extra)
        let outcomes = WorkspaceTests.workspace().openEachRendition(document, vars: VarInputs())
        #expect(outcomes.map(\.rendition) == ["wide", "short", "broken"])
        let durations = outcomes.map { (try? $0.outcome.get())?.graph.overlays.first?.timeRange.duration.seconds }
        #expect(durations[0] == 1 && durations[1] == 0.5)
        guard case .failure(let error) = outcomes[2].outcome else {
            Issue.record("an overlay lasting abc is no error")
            return
        }
        #expect(error.diagnostics.contains { $0.location.line > 0 }, "\(error)")
        let one = WorkspaceTests.workspace().openEachRendition(document, vars: VarInputs(rendition: "short"))
        #expect(one.map(\.rendition) == ["short"])
    }

    @Test func thePlanListsSegmentsExactlyAsTextAndJSON() throws {
        let project = try WorkspaceTests.project("plan.yaml", output: ", segment: 0.4s")
        var request = RenderRequest(projectPath: project.path, document: project.document, vars: VarInputs(), varsFile: nil, output: nil, range: nil,
                                    audioOnly: false, preset: nil, decoderThreads: 1, jobs: 1, partsFolder: nil)
        request.range = "0.2s..1s"
        let prepared = try WorkspaceTests.workspace().prepareRender(request, needsOutput: false)
        let listing = PlanListing(prepared.session.plan, warnings: prepared.project.warnings)
        #expect(listing.framesPerSegment == 10)
        // Segments keep the whole timeline's grid (so a range reuses a full render's), cut at the range's ends.
        #expect(listing.segments.map(\.start) == ["1/5", "2/5", "4/5"] && listing.segments.map(\.end) == ["2/5", "4/5", "1"])
        #expect(listing.text.hasPrefix("3 segments of 10 frames\n  0  frames 5–9  00:00:00.200–00:00:00.400  "))
        let json = try #require(try JSONSerialization.jsonObject(with: Data(listing.json.utf8)) as? [String: Any])
        #expect((json["segments"] as? [[String: Any]])?.first?["firstFrame"] as? Int == 5)
        #expect(json["warnings"] as? [Any] != nil)
    }

    @Test func aBatchIsCheckedBeforeAnyRowAndEveryRowBeforeRendering() throws {
        let (_, document) = try WorkspaceTests.project("batch.yaml", extra: "vars: { title: { type: string, default: x }, length: { type: time, default: 1s } }\n"
                                                        + "overlays: [{ text: \"{{ title }}\", duration: \"{{ length }}\" }]")
        let rowsPath = Self.folder.appendingPathComponent("rows.csv").path
        try "title,length,note\nOne,0.5s,a\nTwo,abc,b\nThree,1s,c\n".write(toFile: rowsPath, atomically: true, encoding: .utf8)
        let rows = try BatchData.load(path: rowsPath)
        let workspace = WorkspaceTests.workspace()
        let output = Self.folder.appendingPathComponent("batch-out").path + "/{{ title | slug }}.mp4"
        let plan = try workspace.prepareBatch(BatchRequest(document: document, rows: rows, output: output, outputInput: "the output field", stamp: "test"))
        #expect(plan.jobs.map(\.row) == [1, 3])
        #expect(plan.rejected.map(\.row) == [2])
        #expect(plan.warnings.count == 1, "the note column is neither a var nor in the template")
        let listing = BatchListing(plan: plan, rowCount: 3, shard: nil, force: false, sources: [document.source, rows.source]) { _ in 65 }
        #expect(listing.rows.map(\.status) == ["render", "invalid", "render"])
        #expect(listing.rows[1].exitStatus == 65 && listing.rows[1].errors?.first?.contains("row 2:") == true)
        #expect(listing.text.contains("row 1: render \(Self.folder.path)/batch-out/one.mp4 (key "))
        // What fails every row alike is said once, at the input that gave it, before any row.
        #expect {
            try workspace.prepareBatch(BatchRequest(document: document, rows: rows, output: "out/{{ titel }}.mp4", outputInput: "the output field", stamp: "test"))
        } throws: { error in
            let message = (error as? ProjectError)?.description ?? ""
            return message.contains("the output field out/{{ titel }}.mp4 uses {{ titel }}") && message.contains("title")
        }
    }

    @Test func aTimelineIsExportedForAnEditingSystem() throws {
        let (path, _) = try WorkspaceTests.project("export.yaml")
        let output = Self.folder.appendingPathComponent("export.edl").path
        let exported = try WorkspaceTests.workspace().exportTimeline(projectPath: path, vars: VarInputs(), varsFile: nil, varsInput: nil, to: output,
                                                                   videoTrack: 0, starts: [])
        #expect(exported.timeline.tracks.flatMap(\.clipPlacements).count >= 1)
        let edl = try String(contentsOfFile: output, encoding: .utf8)
        #expect(edl.contains("FCM: NON-DROP FRAME") && edl.contains("001  "), "\(edl)")
        #expect(throws: OutputRefusal.self) {
            try WorkspaceTests.workspace().exportTimeline(projectPath: path, vars: VarInputs(), varsFile: nil, varsInput: nil, to: path, videoTrack: 0, starts: [])
        }
    }

    @Test func aMediaFileStillIsTheFrameOnScreenAndNeverTheFileItself() throws {
        let clip = try WorkspaceTests.clip()
        let still = try MediaStill(file: clip, sequenceRate: nil)
        #expect(still.frameRate == Rational(25) && still.naturalSize == PixelSize(width: 160, height: 90))
        let png = Self.folder.appendingPathComponent("still.png").path
        let line = try still.save(at: MediaTime(seconds: 1), to: png, size: StillSize(width: 80, height: nil))
        #expect(line == "\(png): \(clip), frame at 00:00:01.000, 80x45")
        #expect(try Data(contentsOf: URL(fileURLWithPath: png)).prefix(4) == Data([0x89, 0x50, 0x4E, 0x47]))
        #expect(throws: OutputRefusal.self) { try still.save(at: .zero, to: clip, size: nil) }
        #expect(throws: MediaError.self) { try MediaStill(file: Self.folder.appendingPathComponent("absent.mp4").path, sequenceRate: nil) }
    }

    @Test func thumbnailsGoToASheetOrAFolder() throws {
        let graph = try WorkspaceTests.workspace().open(try WorkspaceTests.project("thumbs.yaml").path).graph
        let generator = try FrameGenerator(graph: graph)
        let frames = generator.frames(.count(3))
        let folder = Self.folder.appendingPathComponent("thumbs").path
        #expect(generator.thumbnailPaths(of: frames, at: .folder(folder)) == frames.map { "\(folder)/frame-\($0).png" })
        var lines: [String] = []
        try generator.writeThumbnails(frames, to: .folder(folder), size: nil, title: "t") { lines.append($0) }
        #expect(lines.count == 3 && frames.allSatisfy { FileManager.default.fileExists(atPath: "\(folder)/frame-\($0).png") })
        let sheet = Self.folder.appendingPathComponent("sheet.png").path
        try generator.writeThumbnails(frames, to: .sheet(sheet, columns: 2), size: nil, title: "t") { lines.append($0) }
        #expect(lines.last == "\(sheet): 3 frames of 320x180", "a sheet's frames are 320 pixels wide unless told")
    }

    /// A child's failure, its status and its standard error, stay its own; its scratch folder,
    /// where it was given a file, goes when it ends.
    @Test func aChildProcessFailureIsReportedWithItsStandardError() throws {
        var scratchSeen: URL?
        let failure = ChildProcess.run("sh", executable: URL(fileURLWithPath: "/bin/sh")) { scratch in
            scratchSeen = scratch
            let script = scratch.appendingPathComponent("script.sh")
            try "cat \"$0\" >&2; echo ' went wrong' >&2; exit 3\n".write(to: script, atomically: false, encoding: .utf8)
            return [script.path]
        }
        #expect(failure?.hasPrefix("sh exited 3: cat ") == true, "\(failure ?? "nil")")
        #expect(failure?.hasSuffix("went wrong") == true, "\(failure ?? "nil")")
        #expect(scratchSeen.map { !FileManager.default.fileExists(atPath: $0.path) } == true)
        #expect(ChildProcess.run("sh", executable: URL(fileURLWithPath: "/bin/sh")) { _ in ["-c", "exit 0"] } == nil)
    }

    /// A child's output comes line by line as it is written; a child killed by a signal says
    /// which; one that ignores SIGTERM is killed once `stop`'s patience is over.
    @Test func aChildsLinesAndItsEndAreItsParentsToRead() async throws {
        let lines = Mutex<[String]>([])
        let crashing = try ChildProcess("sh", executable: URL(fileURLWithPath: "/bin/sh"), arguments: { _ in
            ["-c", "echo one; printf 'two\\nthree'; echo oops >&2; kill -SEGV $$"]
        }, lines: { line in lines.withLock { $0.append(line) } })
        let outcome = await crashing.outcome()
        #expect(outcome.ending == .killed(signal: SIGSEGV) && outcome.standardError == "oops\n")
        #expect("\(outcome.ending)" == "was killed by SIGSEGV")
        #expect(lines.withLock { $0 } == ["one", "two", "three"])
        let stubborn = try ChildProcess("sh", executable: URL(fileURLWithPath: "/bin/sh")) { _ in ["-c", "trap '' TERM; exec sleep 30"] }
        // Waited for on the server's threads, as a service waits for its children: the
        // concurrency pool may be held for seconds by other suites' synchronous renders.
        try await withTaskExecutorPreference(ServerExecutor.shared) {
            try await Task.sleep(for: .milliseconds(200))
            let started = Date()
            stubborn.stop(patience: 0.5)
            #expect(await stubborn.outcome().ending == .killed(signal: SIGKILL))
            #expect(Date().timeIntervalSince(started) < 5)
        }
    }

    @Test func failureKindsSayWhoseMoveItIs() {
        #expect(FailureKind(of: ProjectError(.invalidProject, Diagnostic(location: .commandLine("x"), path: "", message: "m"))) == .invalidInput)
        #expect(FailureKind(of: MediaError(.fileNotFound, path: "a", "gone")) == .missingFile)
        #expect(FailureKind(of: FileWriteError(.busy(holder: nil), path: "a", "busy", reason: "")) == .cannotWrite)
        #expect(FailureKind(of: RenderRequestError.noOutput) == .usage)
        #expect(FailureKind(of: CocoaError(.fileNoSuchFile)) == .failure)
    }
}
