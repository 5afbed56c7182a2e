import ReelApplication
import CompositionGraph
import FileSafety
import Foundation
import MediaIO
import MediaTime
import OverlayRendering
import ProjectFile
@testable import reel
import RenderEngine
import Synchronization
import TestSupport
import Testing

/// The values the command line reads and what it makes of failures: parsed here, not in the
/// engine, which takes typed values.
@Suite struct CommandLineValuesTests {
    @Test func rangesAreParsedInAnyTimeNotation() throws {
        #expect(try RenderRange.parse("5s..12s", duration: seconds(20), fps: Rational(30)) == TimeRange(start: seconds(5), end: seconds(12)))
        #expect(try RenderRange.parse("150f..", duration: seconds(20), fps: Rational(30)) == TimeRange(start: seconds(5), end: seconds(20)))
        #expect(try RenderRange.parse("..00:01.5", duration: seconds(20), fps: Rational(30)) == TimeRange(start: .zero, end: seconds(3, 2)))
        #expect(throws: RenderRange.ParseError.self) { try RenderRange.parse("12s..5s", duration: seconds(20), fps: Rational(30)) }
        #expect(throws: RenderRange.ParseError.self) { try RenderRange.parse("5s", duration: seconds(20), fps: Rational(30)) }
        #expect(throws: RenderRange.ParseError.self) { try RenderRange.parse("5s..30s", duration: seconds(20), fps: Rational(30)) }
    }


    @Test func progressLinesAndJSON() {
        let lines = Mutex<[String]>([])
        let clock = Mutex(0.0)
        let json = ProgressReporter(style: .json, totalFrames: 100, isTerminal: false, now: { clock.withLock { $0 } },
                                    write: { line in lines.withLock { $0.append(line) } })
        for frame in 1...100 {
            clock.withLock { $0 += 0.05 }
            json.update(framesDone: Int64(frame))
        }
        // One a second (5 s of rendering), plus the first and the last.
        let written = lines.withLock { $0 }
        #expect(written.count == 6)
        #expect(written.last == #"{"frame":100,"frames":100,"percent":100.00,"fps":20.00,"elapsed":5.000,"eta":0.000}"# + "\n")
        let quiet = Mutex<[String]>([])
        let auto = ProgressReporter(style: .auto, totalFrames: 10, isTerminal: false, write: { line in quiet.withLock { $0.append(line) } })
        auto.update(framesDone: 10)
        auto.finish()
        #expect(quiet.withLock { $0.isEmpty })
        #expect(RenderProgress(framesDone: 270, totalFrames: 600, elapsed: 4.5).line == "45.0%  frame 270/600  60.0 fps  elapsed 0:05  ETA 0:06")
    }

    @Test func stillSizes() throws {
        let hd = PixelSize(width: 1920, height: 1080)
        #expect(try StillSize(parsing: "640x").fitting(hd) == PixelSize(width: 640, height: 360))
        #expect(try StillSize(parsing: "x360").fitting(hd) == PixelSize(width: 640, height: 360))
        #expect(try StillSize(parsing: "300X300").fitting(hd) == PixelSize(width: 300, height: 169))
        #expect(try StillSize(parsing: "1000x100").fitting(hd) == PixelSize(width: 178, height: 100))
        #expect(try StillSize(parsing: "1x").fitting(hd) == PixelSize(width: 1, height: 1))
        for bad in ["", "x", "640", "0x", "-5x", "axb", "640x360x2", "99999x"] {
            #expect(throws: StillSize.ParseError.self, "'\(bad)'") { try StillSize(parsing: bad) }
        }
    }

    /// Each kind of failure has one exit status, as the README documents them.
    @Test func everyFailureHasItsDocumentedExitStatus() {
        let diagnostic = Diagnostic(location: .commandLine("--set"), path: "", message: "x")
        let cases: [(any Error, Int32)] = [
            (ProjectError(.usage, diagnostic), 64), (UsageError("--at is outside"), 64),
            (ProjectError(.invalidProject, diagnostic), 65), (ProjectError(.missingFile, diagnostic), 66),
            (RenderError.invalidSettings("odd size"), 65), (RenderError.changedSinceChecked("/a.mp4", name: "a"), 65),
            (RenderError.missingFile("/a.mp4", name: "a"), 66), (RenderError.cancelled, 130),
            (RenderError.media(path: "/a.mp4", sourceTime: .zero, timelineTime: .zero, reason: "damaged"), 1),
            (RenderError.output(path: "/o.mp4", reason: "disk full"), 1),
            (MediaError(.fileNotFound, path: "/a", "no such file"), 66), (MediaError(.notAFile, path: "/a", "a folder"), 66),
            (MediaError(.writingFailed, path: "/a.png", "read-only"), 73), (MediaError(.notMedia, path: "/a", "text"), 65),
            (OverlayError(.unreadableImage(path: "/a.png", detail: "bad")), 65),
            (ProjectError(.cannotWrite, diagnostic), 73), (RenderError.unwritable(path: "/o.mp4", reason: "another process is writing it"), 73),
            (OutputSafety(reading: [ReadFile(path: "/p.yaml", role: "the project file")]).check("/p.yaml")!, 73),
            (OutputSafety(reading: []).check("/")!, 73),
        ]
        for (error, status) in cases {
            #expect(Failure.exitStatus(for: error) == status, "\(error)")
            // A project error's diagnostics say `error:` where each one starts; a cancel is no error.
            #expect(Failure.message(for: error).hasPrefix("error:") || error is ProjectError || status == 130, "\(error)")
        }
    }

    @Test func aBatchFailsWithItsWorstRow() {
        let invalid = ProjectError(.invalidProject, diagnostics: []), missing = ProjectError(.missingFile, diagnostics: [])
        #expect(Failure.batchExitStatus(failedRows: 1, rejected: [invalid, missing]) == 1)
        #expect(Failure.batchExitStatus(failedRows: 0, rejected: [invalid, missing]) == 66)
        #expect(Failure.batchExitStatus(failedRows: 0, rejected: [invalid]) == 65)
        // A row writing a file the batch reads, or another row's file, outweighs both.
        #expect(Failure.batchExitStatus(failedRows: 0, rejected: [invalid, ProjectError(.cannotWrite, diagnostics: []), missing]) == 73)
        #expect(Failure.batchExitStatus(failedRows: 0, rejected: []) == 0)
    }
}
