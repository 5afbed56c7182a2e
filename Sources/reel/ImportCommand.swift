import ReelApplication
import ArgumentParser
import Foundation
import Interchange
import MediaTime

/// `reel import FILE.otio|FILE.edl -o project.yaml`: a cut from an editing system as a Reel project.
struct Import: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Turn an OpenTimelineIO timeline or a CMX 3600 EDL into a Reel project (YAML, or JSON with .json).",
        discussion: """
            Media are found by --media NAME=PATH, then the file's own paths, then in --media-dir by clip, reel or \
            source file name. Source timecodes become media times through each file's start timecode (its \
            timecode track or tag, --media-start NAME=TC, else 00:00:00:00). What Reel cannot express is a \
            warning, with its line (EDL) or JSON path (OTIO) and what was done instead (docs/interchange.md).
            \(ExitStatus.help([.success: "imported (warnings go to standard error)", .usage: "bad usage",
                                .invalidInput: "unreadable timeline", .missingFile: "no such file",
                                .cannotWrite: "cannot write the project"]))
            """
    )

    @Argument(help: "An OpenTimelineIO file (.otio) or a CMX 3600 EDL (.edl).")
    var file: String

    @Option(name: .shortAndLong, help: ArgumentHelp("The project to write (.yaml, .yml or .json).", valueName: "project"))
    var output: String?

    @Option(name: .customLong("media-dir"), help: ArgumentHelp("Find media in this folder by clip, reel or file name.", valueName: "dir"))
    var mediaDirectory: String?

    @Option(help: ArgumentHelp("The file for a clip, reel or file name of the timeline.", valueName: "name=path"))
    var media: [String] = []

    @Option(help: ArgumentHelp("The EDL's frame rate: 23.976, 24, 25, 29.97, 30, 50, 59.94, 60 or n/d (by default 29.97 or 59.94 for a drop-frame EDL, else 24).", valueName: "rate"))
    var fps: String?

    @Option(name: .customLong("media-start"), help: ArgumentHelp("The start timecode of a file that has none.", valueName: "name=tc"))
    var mediaStart: [String] = []

    @Flag(name: .customLong("list-json"), help: "Print the clips as read (name, source and record ranges in frames) as JSON instead of writing a project.")
    var listJSON = false

    func validate() throws {
        if output == nil && !listJSON { throw ValidationError("give -o PROJECT.yaml (or --list-json)") }
        if let output, !["yaml", "yml", "json"].contains((output as NSString).pathExtension.lowercased()) {
            throw ValidationError("-o must name a .yaml, .yml or .json project, not '\(output)'")
        }
    }

    func run() throws {
        try reportingFailures {
            let rate = try fps.map(parseRate)
            let options = MediaOptions(directory: mediaDirectory, explicit: try media.map { try pair($0, "--media") },
                                       starts: try mediaStart.map { try pair($0, "--media-start") })
            if listJSON {
                let (timeline, warnings) = try ProjectImport.read(path: file, rate: rate)
                print(ClipListing.json(timeline, warnings: warnings), terminator: "")
                return
            }
            guard let output else { return }
            let result = try TimelineImporting.importTimeline(file, rate: rate, options: options, to: output) { "a media file (--media \($0))" }
            for warning in result.warnings { FileHandle.standardError.write(Data((Failure.text(for: warning) + "\n").utf8)) }
            print(result.summary(output: output))
        }
    }
}

/// `NAME=VALUE` of a repeated option (`emptyValue`: `NAME=` too).
func pair(_ text: String, _ option: String, emptyValue: Bool = false) throws -> (String, String) {
    guard let eq = text.firstIndex(of: "="), eq != text.startIndex, emptyValue || text.index(after: eq) != text.endIndex else {
        throw UsageError("\(option) takes \(emptyValue ? "name=value" : "NAME=VALUE"), got '\(text)'")
    }
    return (String(text[..<eq]), String(text[text.index(after: eq)...]))
}

/// `--fps`: a rate as `FrameRateNotation` reads it (29.97 is 30000/1001), at most 1000.
func parseRate(_ text: String) throws -> Rational {
    guard let r = FrameRateNotation.parse(text), r <= Rational(1000) else { throw UsageError("--fps takes a frame rate such as 25, 29.97 or 30000/1001, got '\(text)'") }
    return r
}
