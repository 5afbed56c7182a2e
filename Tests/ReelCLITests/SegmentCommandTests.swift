import Digest
import Foundation
import TestSupport
import Testing

/// The runner contract (`reel plan`, `reel render --segment K --parts DIR`, `reel join`) and
/// the cache, against the real `reel`.
@Suite(.serialized) struct SegmentCommandTests {
    static let folder: URL = {
        let url = URL(fileURLWithPath: MediaFactory.path("segment-cli"))
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }()

    func path(_ name: String) -> String { Self.folder.appendingPathComponent(name).path }

    static let clip: Result<String, any Error> = Result {
        try MediaFactory.file("segment-clip.mp4", ["-f", "lavfi", "-i", "testsrc2=s=320x180:r=25:d=4", "-f", "lavfi", "-i", "sine=f=440:d=4",
                                                   "-c:v", "libx264", "-c:a", "aac"])
    }

    /// A 3 s project in 1 s segments whose fields the edits below change.
    func project(title: String = "One", from: String = "0s", crf: Int = 23, volume: String = "1", media: String? = nil) throws -> String {
        let file = try media ?? Self.clip.get()
        let text = """
            reel: 1
            output: { size: [320, 180], fps: 25, segment: 1s, video: { crf: \(crf), preset: ultrafast } }
            media: { clip: \(file) }
            video:
              - clips:
                  - media: clip
                    from: \(from)
                    duration: 3s
                    volume: \(volume)
            overlays:
              - text: \(title)
                at: 1.2s
                duration: 0.5s
            """
        let project = path("project.yaml")
        try text.write(toFile: project, atomically: true, encoding: .utf8)
        return project
    }

    func run(_ arguments: [String], cache: String) throws -> ReelRun {
        let run = try ReelCommand.run(arguments, environment: ["REEL_CACHE_DIR": cache])
        #expect(run.status == 0, "\(arguments): \(run.standardError)")
        return run
    }

    @Test func planRenderEachSegmentJoinEqualsOneRender() throws {
        let project = try project()
        let cache = path("cache-contract")
        let plan = try run(["plan", project, "--json"], cache: cache)
        let json = try JSONSerialization.jsonObject(with: Data(plan.standardOutput.utf8)) as? [String: Any]
        let segments = json?["segments"] as? [[String: Any]] ?? []
        #expect(segments.count == 3 && json?["framesPerSegment"] as? Int == 25)
        #expect(segments.map { $0["firstFrame"] as? Int } == [0, 25, 50])
        let parts = path("parts")
        try? FileManager.default.removeItem(atPath: parts)
        for k in [2, 0, 1] { _ = try run(["render", project, "--segment", String(k), "--parts", parts, "--progress", "none"], cache: cache) }
        let joined = path("joined.mp4")
        _ = try run(["join", project, "--parts", parts, "-o", joined], cache: cache)
        let rendered = path("rendered.mp4")
        try? FileManager.default.removeItem(atPath: path("cache-jobs"))
        _ = try run(["render", project, "-o", rendered, "--jobs", "2", "--progress", "none"], cache: path("cache-jobs"))
        let single = path("single.mp4")
        _ = try run(["render", project, "-o", single, "--no-cache", "--progress", "none"], cache: cache)
        let pinned = try ReelCommand.run(["render", project, "-o", path("pinned.mp4"), "--no-cache", "--threads", "3", "--progress", "none"])
        #expect(pinned.status == 0)
        let expected = try SHA256.hexDigest(ofFileAt: single)
        // Every part is the same bytes whichever process made it (a retried unit writes the same file).
        let partNames = try FileManager.default.contentsOfDirectory(atPath: parts).filter { $0.hasSuffix(".reelpart") }
        #expect(partNames.count == 3)
        for name in partNames {
            #expect(FileManager.default.contents(atPath: parts + "/" + name) == FileManager.default.contents(atPath: path("cache-jobs") + "/" + name), "\(name)")
        }
        for file in [joined, rendered, path("pinned.mp4")] { #expect(try SHA256.hexDigest(ofFileAt: file) == expected, "\(file)") }
        // Under one core.
        let taskset = Process()
        taskset.executableURL = URL(fileURLWithPath: "/usr/bin/taskset")
        taskset.arguments = ["-c", "0", ReelCommand.executable.path, "render", project, "-o", path("one-core.mp4"), "--no-cache", "--jobs", "3", "--progress", "none"]
        try taskset.run()
        taskset.waitUntilExit()
        #expect(taskset.terminationStatus == 0)
        #expect(try SHA256.hexDigest(ofFileAt: path("one-core.mp4")) == expected)
        // A missing part is named.
        try FileManager.default.removeItem(atPath: try FileManager.default.contentsOfDirectory(atPath: parts)
            .filter { $0.hasSuffix(".reelpart") }.map { parts + "/" + $0 }.first!)
        let broken = try ReelCommand.run(["join", project, "--parts", parts, "-o", path("broken.mp4")])
        #expect(broken.status == 66 && broken.standardError.contains("has no rendered part"), "\(broken.standardError)")
        #expect(!FileManager.default.fileExists(atPath: path("broken.mp4")))
    }

    /// A worker killed mid-segment leaves no part a join accepts; a render with the same parts
    /// folder then makes only that segment and joins.
    /// One job per core the process may use: `taskset -c 0` (as a cpuset or a pod's CPU limit
    /// would) makes the default 1.
    @Test func theDefaultJobsFollowTheCoresTheProcessMayUse() throws {
        let help = try MediaFactory.run("taskset", ["-c", "0", ReelCommand.executable.path, "render", "--help"])
        let flat = help.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        #expect(flat.contains("at most 8 (the output does not depend on it). (default: 1)"), "\(help)")
    }

    @Test func aKilledWorkerLeavesNothingToJoin() throws {
        let project = try project()
        let parts = path("parts-killed")
        try? FileManager.default.removeItem(atPath: parts)
        for k in [0, 2] { _ = try run(["render", project, "--segment", String(k), "--parts", parts, "--progress", "none"], cache: parts) }
        let worker = Process()
        worker.executableURL = ReelCommand.executable
        worker.arguments = ["render", project, "--segment", "1", "--parts", parts, "--progress", "none"]
        worker.standardOutput = FileHandle.nullDevice
        worker.standardError = FileHandle.nullDevice
        try worker.run()
        // Killed as soon as its temporary part exists (or, on a fast machine, right away).
        let deadline = Date().addingTimeInterval(20)
        while worker.isRunning, Date() < deadline,
              !((try? FileManager.default.contentsOfDirectory(atPath: parts)) ?? []).contains(where: { $0.hasSuffix(".partial") }) {
            usleep(2_000)
        }
        kill(worker.processIdentifier, SIGKILL)
        worker.waitUntilExit()
        let joined = path("killed.mp4")
        let refused = try ReelCommand.run(["join", project, "--parts", parts, "-o", joined])
        if worker.terminationReason == .uncaughtSignal {
            #expect(refused.status == 66 && refused.standardError.contains("segment 1 (frames 25–49"), "\(refused.standardError)")
        }
        let again = try run(["render", project, "--parts", parts, "-o", joined], cache: parts)
        #expect(["1 segment rendered, 2 reused", "0 segments rendered, 3 reused"].contains { again.standardError.contains($0) }, "\(again.standardError)")
        let clean = path("killed-clean.mp4")
        _ = try run(["render", project, "--no-cache", "-o", clean, "--progress", "none"], cache: parts)
        #expect(try SHA256.hexDigest(ofFileAt: joined) == (try SHA256.hexDigest(ofFileAt: clean)))
        #expect(!((try? FileManager.default.contentsOfDirectory(atPath: parts)) ?? []).contains { $0.hasSuffix(".partial") })
    }

    /// Edits in a seeded random order; after each, a cached render renders only the segments
    /// the edit touches and equals a clean render byte for byte.
    @Test func editsReRenderOnlyWhatTheyTouch() throws {
        let cache = path("cache-edits")
        try? FileManager.default.removeItem(atPath: cache)
        let other = try MediaFactory.file("segment-clip-other.mp4", ["-f", "lavfi", "-i", "testsrc=s=320x180:r=25:d=4", "-f", "lavfi", "-i", "sine=f=660:d=4",
                                                                     "-c:v", "libx264", "-c:a", "aac"])
        let copy = path("media.mp4")
        try? FileManager.default.removeItem(atPath: copy)
        try FileManager.default.copyItem(atPath: try Self.clip.get(), toPath: copy)
        var fields: (title: String, from: String, crf: Int, volume: String) = ("One", "0s", 23, "1")
        func render() throws -> (rendered: Int, reused: Int, audioReused: Bool) {
            let project = try project(title: fields.title, from: fields.from, crf: fields.crf, volume: fields.volume, media: copy)
            let cached = try run(["render", project, "-o", path("cached.mp4")], cache: cache)
            _ = try run(["render", project, "-o", path("clean.mp4"), "--no-cache", "--progress", "none"], cache: cache)
            #expect(try SHA256.hexDigest(ofFileAt: path("cached.mp4")) == (try SHA256.hexDigest(ofFileAt: path("clean.mp4"))))
            let line = cached.standardError.split(separator: "\n").last.map(String.init) ?? ""
            let numbers = line.split(separator: " ").compactMap { Int($0) }
            #expect(line.hasSuffix("; audio reused") || line.hasSuffix("; audio mixed"), "\(line)")
            return (numbers.first ?? -1, numbers.dropFirst().first ?? -1, line.hasSuffix("; audio reused"))
        }
        #expect(try render() == (3, 0, false))
        // Each edit, the segments it renders again and whether the join's kept audio still serves.
        var edits: [(String, () throws -> Void, Int, Bool)] = [
            ("overlay text (1.2–1.7 s)", { fields.title = "Two" }, 1, true),
            ("volume", { fields.volume = "0.5" }, 0, false),
            ("trim", { fields.from = "0.5s" }, 3, false),
            ("output setting", { fields.crf = 30 }, 3, true),
            ("media bytes", { try FileManager.default.removeItem(atPath: copy); try FileManager.default.copyItem(atPath: other, toPath: copy) }, 3, false),
        ]
        var random = SplitMix64(seed: 2026)
        edits.shuffle(using: &random)
        for (name, edit, expected, audioKept) in edits {
            try edit()
            let (rendered, reused, audioReused) = try render()
            #expect(rendered == expected && reused == 3 - expected && audioReused == audioKept,
                    "\(name): \(rendered) rendered, \(reused) reused, audio \(audioReused ? "reused" : "mixed")")
        }
    }
}
