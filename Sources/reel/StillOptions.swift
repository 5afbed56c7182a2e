import ArgumentParser
import CompositionGraph
import Foundation
import MediaTime
import RenderEngine

/// What `reel frame` and `reel thumbnails` share: the project, its vars, the size of the
/// images, and the preset whose pictures they show.
struct StillOptions: ParsableArguments {
    @OptionGroup var project: ProjectOptions

    @Option(help: ArgumentHelp("Scale the images: 640x (width), x360 (height) or 640x360 (fit inside); default: the render size.",
                               valueName: "size"), transform: StillSize.init(parsing:))
    var size: StillSize?

    @OptionGroup var encoding: EncodingOptions

    /// The project compiled and checked, ready to make frames (the preset's size and frame rate applied).
    func generator() throws -> FrameGenerator {
        try FrameGenerator(graph: try project.graph(), preset: encoding.preset,
                           decoderThreads: encoding.threads)
    }
}

/// A time an option gives (`3.5s`, `00:00:03.500`, `105f`…), frames counted at `fps`.
func parseTime(_ text: String, option: String, fps: Rational) throws -> MediaTime {
    do {
        return try TimeNotation.parse(text, fps: fps)
    } catch {
        throw UsageError("\(option) '\(text)': \(error.message)")
    }
}
