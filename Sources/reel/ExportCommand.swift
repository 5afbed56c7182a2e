import ReelApplication
import ArgumentParser
import Foundation

/// `reel export PROJECT -o FILE.otio|FILE.edl`: the compiled timeline for an editing system.
struct Export: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Write a project's timeline as an OpenTimelineIO file (.otio) or a CMX 3600 EDL (.edl) for an editing system.",
        discussion: """
            Clips keep their names, source ranges (in source timecode: from + the media's start timecode), \
            speeds, gaps, transitions and markers; an EDL holds one video track (--video-track, 1 = the bottom) \
            and up to four audio tracks. Media that are not on this machine are exported by path, starting at \
            00:00:00:00 (or --media-start). What an editing system cannot receive is a warning (docs/interchange.md).
            \(ExitStatus.help([.success: "exported", .usage: "bad usage", .invalidInput: "invalid project",
                                .missingFile: "no such project", .cannotWrite: "cannot write", .tryLater: "a remote media file cannot be fetched now"]))
            """
    )

    @OptionGroup var project: ProjectOptions

    @Option(name: .shortAndLong, help: ArgumentHelp("The file to write: .otio or .edl.", valueName: "file"))
    var output: String

    @Option(name: .customLong("video-track"), help: "For an EDL: the video track to export, 1 = the bottom one.")
    var videoTrack = 1

    @Option(name: .customLong("media-start"), help: ArgumentHelp("The start timecode of a media file that has none (or is missing).", valueName: "name=tc"))
    var mediaStart: [String] = []

    func validate() throws {
        let ext = (output as NSString).pathExtension.lowercased()
        guard ext == "otio" || ext == "edl" else { throw ValidationError("-o must name an .otio or .edl file, not '\(output)'") }
        guard videoTrack >= 1 else { throw ValidationError("--video-track counts from 1") }
    }

    func run() throws {
        try reportingFailures {
            let exported = try project.fetching.workspace().exportTimeline(
                projectPath: project.path, vars: try project.vars.values(), varsFile: project.vars.file, varsInput: "--vars", to: output, videoTrack: videoTrack - 1,
                starts: try mediaStart.map { try pair($0, "--media-start") })
            for path in exported.missingMedia { FileHandle.standardError.write(Data("warning: \(path) not found: exported by its path, starting at 00:00:00:00\n".utf8)) }
            for warning in exported.warnings { FileHandle.standardError.write(Data((Failure.text(for: warning) + "\n").utf8)) }
            print(exported.summary(output: output))
        }
    }
}
