import ReelApplication
import ArgumentParser
import FileSafety
import Foundation
import Interchange
import MediaIO
import ProjectCompiler
import RenderEngine

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

    @Argument(help: "A project file.")
    var project: String

    @Option(name: .shortAndLong, help: ArgumentHelp("The file to write: .otio or .edl.", valueName: "file"))
    var output: String

    @Option(name: .customLong("video-track"), help: "For an EDL: the video track to export, 1 = the bottom one.")
    var videoTrack = 1

    @Option(name: .customLong("media-start"), help: ArgumentHelp("The start timecode of a media file that has none (or is missing).", valueName: "name=tc"))
    var mediaStart: [String] = []

    @OptionGroup var vars: VarOverrides

    @OptionGroup var fetching: MediaFetching

    func validate() throws {
        let ext = (output as NSString).pathExtension.lowercased()
        guard ext == "otio" || ext == "edl" else { throw ValidationError("-o must name an .otio or .edl file, not '\(output)'") }
        guard videoTrack >= 1 else { throw ValidationError("--video-track counts from 1") }
    }

    func run() throws {
        try reportingFailures {
            let values = try vars.values()
            let facts = AbsentMediaFacts(base: MediaFactsReader())
            let loaded = try ProjectPipeline.load(path: project, overrides: values.overrides, overrideSources: values.sources, rendition: values.rendition,
                                                  media: facts, fonts: nil, remote: try fetching.workspace().remote)
            try refuseUnsafeOutputs([output], project: project, varsFile: vars.file, varsInput: "--vars", graph: loaded.graph, exampleName: "cut.otio")
            let (timeline, exportWarnings) = try TimelineExport.timeline(loaded.project, layout: loaded.layout, starts: try mediaStart.map { try pair($0, "--media-start") })
            var warnings = exportWarnings
            let text: String
            if output.lowercased().hasSuffix(".edl") {
                let (edl, more) = try EDLWriter.text(timeline, videoTrack: videoTrack - 1)
                (text, warnings) = (edl, warnings + more)
            } else {
                text = OTIOWriter.json(timeline)
            }
            for path in facts.missing { FileHandle.standardError.write(Data("warning: \(path) not found: exported by its path, starting at 00:00:00:00\n".utf8)) }
            for warning in warnings { FileHandle.standardError.write(Data((Failure.text(for: warning) + "\n").utf8)) }
            try PNGEncoder.writeAtomically(Array(text.utf8), to: output)
            print("\(output): \(counted(timeline.tracks.reduce(0) { $0 + $1.clipPlacements.count }, "clip")) on \(counted(timeline.tracks.count, "track")), \(counted(warnings.count + facts.missing.count, "warning"))")
        }
    }
}
