import ArgumentParser
import CompositionGraph
import Foundation
import MediaFormat
import MediaTime
import RenderEngine

/// `reel render PROJECT [-o OUT] [--set k=v]... [--range 5s..12s] [--threads N] [--preset P] [--progress json]`.
struct Render: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Render a project to a video file.",
        discussion: """
        Exit status: 0 done, 64 bad usage, 65 invalid project or settings, 66 a file is missing, \
        73 the output cannot or may not be written (a folder, a file the project reads, another render writing it), 1 a failure while rendering (the message names the media file and time), 130 cancelled.
        """
    )

    @Argument(help: "The project file (YAML or JSON).")
    var project: String

    @Option(name: .shortAndLong, help: "Output file; the container follows its extension. Default: the project's output.path.")
    var output: String?

    @OptionGroup var vars: VarOverrides

    @Option(help: ArgumentHelp("Render only this part of the timeline, e.g. 5s..12s.", valueName: "start..end"))
    var range: String?

    @OptionGroup var encoding: EncodingOptions

    @Option(help: ArgumentHelp("auto: a live line on a terminal; json: one JSON object a second on stdout; none.", valueName: "style"))
    var progress: ProgressStyle = .auto

    func run() throws {
        try reportingFailures {
            var graph = try loadGraph(projectPath: project, options: vars)
            if let output, let container = Container(fileExtension: URL(fileURLWithPath: output).pathExtension) {
                graph.output.container = container // a file named here gets the container its name says
            }
            guard let path = output ?? graph.output.path else {
                throw UsageError("no output file: pass -o FILE or set output.path in the project")
            }
            try refuseUnsafeOutputs([path], project: project, vars: vars, graph: graph, exampleName: "out.mp4")
            var timeRange: TimeRange?
            if let range {
                do {
                    timeRange = try RenderRange.parse(range, duration: graph.duration, fps: graph.videoComposition.frameDuration.value.reciprocal)
                } catch {
                    throw UsageError("\(error)")
                }
            }
            let session = try ExportSession(graph: graph, options: ExportOptions(outputPath: path, range: timeRange,
                                                                                 threads: encoding.threads, preset: encoding.preset))
            let signals = SignalCancellation { session.cancel() }
            defer { withExtendedLifetime(signals) {} }
            let reporter = ProgressReporter(style: progress, totalFrames: session.frameCount)
            defer { reporter.finish() }
            try session.run { reporter.update(framesDone: $0) }
        }
    }
}
