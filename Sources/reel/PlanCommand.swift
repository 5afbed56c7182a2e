import ReelApplication
import ArgumentParser
import Foundation
import RenderEngine

/// `reel plan PROJECT [--json]`: the segments a render is made of.
struct Plan: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "List the segments a render of the project is made of: index, frames, times and content key.",
        discussion: """
        A runner renders each segment with reel render PROJECT --segment K --parts DIR (in any order, on \
        any machine that has the project and its media at the same paths) and joins them with \
        reel join PROJECT --parts DIR -o OUT. A segment whose key is unchanged need not be rendered again. \
        \(ExitStatus.help([.success: "done", .usage: "bad usage", .invalidInput: "invalid project", .missingFile: "a file is missing",
                            .tryLater: "a remote media file cannot be fetched now"]))
        """
    )

    @OptionGroup var project: ProjectOptions

    @Option(help: ArgumentHelp("Plan only this part of the timeline, e.g. 5s..12s.", valueName: "start..end"))
    var range: String?

    @Option(help: ArgumentHelp("Replace the output settings by a preset (docs/render.md).", valueName: "preset"))
    var preset: ExportPreset?

    @Flag(help: "Print JSON.")
    var json = false

    @OptionGroup var warnings: StrictOption

    func run() throws {
        try reportingFailures {
            // The cache folder's digests, if any, spare reading the media (keys are by content).
            let rendering = try RenderingOptions.parse(preset.map { ["--preset", $0.rawValue] } ?? [])
            let planned = try project.fetching.workspace().prepareRender(try rendering.request(project: project, output: nil, range: range),
                                                                 needsOutput: false, check: warnings.check)
            let listing = PlanListing(planned.session.plan, warnings: planned.project.warnings)
            print(json ? listing.json : listing.text, terminator: "")
        }
    }
}

/// `reel join PROJECT --parts DIR -o OUT`: the rendered segments into one file.
struct Join: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Join the rendered segments of a project (reel render --segment K --parts DIR) into the output file.",
        discussion: """
        Every segment's part must be in DIR, complete and made for the project as it is now; a missing, \
        truncated or foreign part is named with its segment. The audio of the whole timeline is mixed \
        and encoded here. \(ExitStatus.help([.success: "done", .usage: "bad usage", .invalidInput: "invalid project or part",
                                             .missingFile: "a file or part is missing", .cannotWrite: "cannot write the output",
                                             .tryLater: "a remote media file cannot be fetched now"]))
        """
    )

    @OptionGroup var project: ProjectOptions

    @Option(name: .shortAndLong, help: "Output file; the container follows its extension. Default: the project's output.path.")
    var output: String?

    @Option(help: ArgumentHelp("Join only this part of the timeline (as rendered with the same --range).", valueName: "start..end"))
    var range: String?

    @Option(help: ArgumentHelp("The folder the segments were rendered into.", valueName: "folder"))
    var parts: String

    @Option(help: ArgumentHelp("The preset the segments were rendered with.", valueName: "preset"))
    var preset: ExportPreset?

    func run() throws {
        try reportingFailures {
            let rendering = try RenderingOptions.parse(["--parts", parts] + (preset.map { ["--preset", $0.rawValue] } ?? []))
            let session = try project.fetching.workspace().prepareRender(try rendering.request(project: project, output: output, range: range),
                                                                 needsOutput: true, check: rendering.warnings.check).session
            let loudness = try session.join()
            print("\(session.options.outputPath): \(session.plan.segments.count) segments joined")
            if let loudness { print(loudness.summary) }
        }
    }
}
