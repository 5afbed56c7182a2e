import Foundation
import TestSupport
import Testing

/// `reel render --no-cache` keeps its segments in a temporary folder beside the output,
/// `.NAME.partials`, locked while it renders. A second render of the same output meanwhile is
/// refused before it renders anything and leaves that folder alone; the first finishes with
/// its file. (The refused one used to remove the folder on its way out: the first then could
/// not write its segments, and neither left an output.)
@Suite(.serialized) struct NoCacheRaceTests {
    typealias Running = KilledAndRacingRenderTests.Running

    static let render = ["render", "long.yaml", "-o", "out.mp4", "--no-cache", "--progress", "none"]

    /// True once `process` has ended, false if it still runs after `seconds`.
    static func waitForExit(_ process: Process, seconds: Double) -> Bool {
        let end = Date(timeIntervalSinceNow: seconds)
        while process.isRunning && Date() < end { Thread.sleep(forTimeInterval: 0.05) }
        return !process.isRunning
    }

    /// Stops `process` and waits until every one of its threads has stopped: kill(2) only sends
    /// the signal, and a thread that has not taken it yet may still write a segment.
    static func stop(_ process: Process) throws {
        kill(process.processIdentifier, SIGSTOP)
        let tasks = "/proc/\(process.processIdentifier)/task"
        func allStopped() -> Bool {
            let threads = (try? FileManager.default.contentsOfDirectory(atPath: tasks)) ?? []
            return !threads.isEmpty && threads.allSatisfy { thread in
                // "PID (NAME) STATE …": the state follows the last ")"; T when stopped by a signal.
                let stat = (try? String(contentsOfFile: "\(tasks)/\(thread)/stat", encoding: .utf8)) ?? ""
                return stat.split(separator: ")").last?.split(separator: " ").first == "T"
            }
        }
        let end = Date(timeIntervalSinceNow: 30)
        while !allStopped() && Date() < end { Thread.sleep(forTimeInterval: 0.01) }
        try #require(allStopped(), "reel (pid \(process.processIdentifier)) did not stop within 30 s of SIGSTOP")
    }

    /// The files in `folder` with their bytes, and the folder's device and inode.
    func contents(_ folder: String) throws -> (identity: [UInt64], files: [String: Data]) {
        var info = stat()
        guard stat(folder, &info) == 0 else { return ([], [:]) }
        var files: [String: Data] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: folder) {
            files[name] = FileManager.default.contents(atPath: folder + "/" + name)
        }
        return ([UInt64(info.st_dev), UInt64(info.st_ino)], files)
    }

    @Test func aSecondRenderIsRefusedAndLeavesTheFirstOnesSegmentsAlone() throws {
        let folder = try SafetyFolder()
        defer { folder.remove() }
        let reference = try ReelCommand.run(["render", "long.yaml", "-o", "reference.mp4", "--no-cache", "--progress", "none"], in: folder.url)
        try #require(reference.status == 0, "\(reference.standardError)")

        let first = try Running(Self.render, in: folder)
        // The parts folder is claimed before the output's temporary file is made, and all the
        // segments are still to render then: stopped as that file appears, the first render
        // surely holds its parts folder.
        let appeared = FileEvents.waitForFile(folder.file(".out.mp4.partial"), timeout: 60)
        defer { kill(first.process.processIdentifier, SIGCONT) }
        try Self.stop(first.process)
        try #require(appeared, "the first render never started writing out.mp4")
        let parts = folder.file(".out.mp4.partials")
        let before = try contents(parts)
        try #require(!before.identity.isEmpty, "no \(parts) while the first render runs")

        // Bounded: the second used to wait for a segment the stopped first one was writing.
        let refused = try Running(Self.render, in: folder)
        let ended = Self.waitForExit(refused.process, seconds: 30)
        if !ended { kill(refused.process.processIdentifier, SIGKILL) }
        let second = refused.finish()
        #expect(ended, "the second render was still running 30 s after it started")
        #expect(second.status == 73, "\(second.errors)")
        #expect(second.errors.contains("error: cannot write out.mp4: another process (pid \(first.process.processIdentifier)) is writing this file now "
                                       + "(its temporary folder \(parts) is locked)"), "\(second.errors)")
        let after = try contents(parts)
        #expect(after.identity == before.identity, "the first render's parts folder was removed or replaced")
        #expect(after.files == before.files, "the first render's parts folder was changed")

        kill(first.process.processIdentifier, SIGCONT)
        let end = first.finish()
        #expect(end.status == 0, "\(end.errors)")
        #expect(try folder.bytes("out.mp4") == folder.bytes("reference.mp4"))
        #expect(!FileManager.default.fileExists(atPath: parts))
        #expect(folder.partialFiles().isEmpty)
    }

    /// A render killed with SIGKILL leaves its parts folder; nobody holds it then, so the
    /// next render of the output takes it over and removes it when done.
    @Test func aKilledRendersPartsFolderIsTakenOverByTheNext() throws {
        let folder = try SafetyFolder()
        defer { folder.remove() }
        let parts = folder.file(".out.mp4.partials")
        let killed = try Running(Self.render, in: folder)
        let appeared = FileEvents.waitForFile(folder.file(".out.mp4.partial"), timeout: 60)
        kill(killed.process.processIdentifier, SIGKILL)
        _ = killed.finish()
        try #require(appeared, "the render never started writing out.mp4")
        #expect(FileManager.default.fileExists(atPath: parts), "SIGKILL leaves the parts folder behind")

        let next = try ReelCommand.run(Self.render, in: folder.url)
        #expect(next.status == 0, "\(next.standardError)")
        #expect(!FileManager.default.fileExists(atPath: parts))
        #expect(folder.partialFiles().isEmpty)
    }
}
