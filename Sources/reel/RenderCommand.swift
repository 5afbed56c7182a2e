import ArgumentParser
import CompositionGraph
import Foundation
import MediaTime
import RenderEngine

/// `reel render PROJECT [-o OUT] [--set k=v]... [--range 5s..12s] [--threads N] [--preset P] [--progress json]`.
struct Render: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Render a project to a video file.",
        discussion: """
        Exit status: 0 done, 64 bad usage, 65 invalid project or settings, 66 a file is missing, \
        1 a failure while rendering (the message names the media file and time), 130 cancelled.
        Presets: \(ExportPreset.allCases.map(\.rawValue).joined(separator: ", ")) (see docs/render.md).
        """
    )

    @Argument(help: "The project file (YAML or JSON).")
    var project: String

    @Option(name: .shortAndLong, help: "Output file; the container follows its extension. Default: the project's output.path.")
    var output: String?

    @OptionGroup var vars: VarOverrides

    @Option(help: ArgumentHelp("Render only this part of the timeline, e.g. 5s..12s.", valueName: "start..end"))
    var range: String?

    @Option(help: "Threads per encoder and per video decoder (the output depends on it, not on the machine).")
    var threads: Int = ExportOptions.defaultThreads

    @Option(help: ArgumentHelp("Replace the output settings by a preset: \(ExportPreset.allCases.map(\.rawValue).joined(separator: " | ")).",
                               valueName: "preset"))
    var preset: String?

    @Option(help: ArgumentHelp("auto: a live line on a terminal; json: one JSON object a second on stdout; none.", valueName: "style"))
    var progress: String = ProgressStyle.auto.rawValue

    func run() throws {
        guard let style = ProgressStyle(rawValue: progress) else {
            throw ValidationError("--progress '\(progress)': use \(ProgressStyle.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        var chosenPreset: ExportPreset?
        if let preset {
            guard let p = ExportPreset(rawValue: preset) else {
                throw ValidationError("--preset '\(preset)': use \(ExportPreset.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            chosenPreset = p
        }
        let graph = try loadGraph(projectPath: project, options: vars)
        var timeRange: TimeRange?
        if let range {
            do {
                timeRange = try RenderRange.parse(range, duration: graph.duration, fps: graph.videoComposition.frameDuration.value.reciprocal)
            } catch {
                throw usageFailure(error.description)
            }
        }
        do {
            let session = try ExportSession(graph: graph, options: ExportOptions(outputPath: output, range: timeRange, threads: threads,
                                                                                 preset: chosenPreset, progress: style))
            try session.run(handlingSignals: true)
        } catch let error as RenderError {
            FileHandle.standardError.write(Data((error.description + "\n").utf8))
            throw ExitCode(error.exitCode)
        }
    }
}
