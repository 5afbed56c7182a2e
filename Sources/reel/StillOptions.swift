import ArgumentParser
import CompositionGraph
import Foundation
import MediaIO
import MediaTime
import RenderEngine

/// What `reel frame` and `reel thumbnails` share: the project, its vars, the size of the
/// images, and the preset whose pictures they show.
struct StillOptions: ParsableArguments {
    @Argument(help: "The project file (YAML or JSON).")
    var project: String

    @OptionGroup var vars: VarOverrides

    @Option(help: ArgumentHelp("Scale the images: 640x (width), x360 (height) or 640x360 (fit inside); default: the render size.",
                               valueName: "size"))
    var size: String?

    @Option(help: ArgumentHelp("Show the frames of a render with this preset (its size and frame rate): \(ExportPreset.allCases.map(\.rawValue).joined(separator: " | ")).",
                               valueName: "preset"))
    var preset: String?

    @Option(help: "Threads per video decoder.")
    var threads: Int = ExportOptions.defaultThreads

    func validate() throws {
        guard threads >= 1 else { throw ValidationError("--threads must be at least 1") }
        if let preset, ExportPreset(rawValue: preset) == nil {
            throw ValidationError("--preset '\(preset)': use \(ExportPreset.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        if let size {
            do { _ = try StillSize(parsing: size) } catch { throw ValidationError(error.description) }
        }
    }

    /// The project compiled and checked, ready to make frames; errors are reported with their exit codes.
    func generator() throws -> FrameGenerator {
        let graph = try loadGraph(projectPath: project, options: vars)
        return try reportingRenderErrors {
            try FrameGenerator(graph: graph, preset: preset.flatMap(ExportPreset.init(rawValue:)), decoderThreads: threads)
        }
    }

    /// The size images are scaled to (`--size` was checked by `validate`).
    func imageSize(_ generator: FrameGenerator) -> PixelSize {
        let renderSize = generator.graph.videoComposition.renderSize
        return size.flatMap { try? StillSize(parsing: $0) }?.fitting(renderSize) ?? renderSize
    }

    /// A time given on the command line (`3.5s`, `00:00:03.500`, `105f`…), at the output's frame rate.
    func time(_ text: String, option: String, _ generator: FrameGenerator) throws -> MediaTime {
        do {
            return try TimeNotation.parse(text, fps: generator.frameDuration.value.reciprocal)
        } catch {
            throw usageFailure("\(option) '\(text)': \(error.message)")
        }
    }
}
