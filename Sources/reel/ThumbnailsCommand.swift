import ReelApplication
import ArgumentParser
import Foundation
import RenderEngine

/// `reel thumbnails PROJECT --every 2s | --count 12 [--sheet sheet.png] [-o DIR]`.
struct Thumbnails: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Render a series of output frames to PNGs, or to one contact sheet with the timecode under each frame.",
        discussion: """
        --every 2s takes the frames at 0, 2s, 4s… before the end; --count 12 takes the frame in the \
        middle of each twelfth of the timeline. Frames are the ones reel frame makes. \
        \(ExitStatus.help([.success: "done", .usage: "bad usage", .invalidInput: "invalid project",
                            .missingFile: "a file is missing", .cannotWrite: "cannot write", .tryLater: "a remote media file cannot be fetched now"]))
        """
    )

    @OptionGroup var still: StillOptions

    @Option(help: ArgumentHelp("A frame every this long: 2s, 00:00:02, 60f…", valueName: "time"))
    var every: String?

    @Option(help: ArgumentHelp("This many frames, spread evenly.", valueName: "n"))
    var count: Int?

    @Option(help: ArgumentHelp("Write one contact sheet PNG instead of a PNG per frame.", valueName: "file"))
    var sheet: String?

    @Option(help: "Frames per row of the contact sheet.")
    var columns: Int = 4

    @Option(name: .shortAndLong, help: ArgumentHelp("Folder for the PNGs (frame-N.png); default: thumbnails.", valueName: "folder"))
    var output: String?

    func validate() throws {
        guard (every == nil) != (count == nil) else { throw ValidationError("give either --every or --count") }
        if let count, !(1...10_000).contains(count) { throw ValidationError("--count must be 1…10000, not \(count)") }
        guard (1...100).contains(columns) else { throw ValidationError("--columns must be 1…100, not \(columns)") }
        if sheet != nil, output != nil { throw ValidationError("--sheet writes one file; -o names a folder of PNGs: give one of them") }
    }

    func run() throws {
        try reportingFailures {
            let generator = try still.generator()
            let spacing: ThumbnailSpacing
            if let every {
                let step = try parseTime(every, option: "--every", fps: generator.graph.videoComposition.frameRate)
                guard step.isPositive else { throw UsageError("--every '\(every)' must be longer than 0") }
                spacing = .every(step)
            } else {
                spacing = .count(count ?? 12) // validate() made sure one of the two is given
            }
            let frames = generator.frames(spacing)
            let destination: ThumbnailDestination = sheet.map { .sheet($0, columns: columns) } ?? .folder(output ?? "thumbnails")
            try still.project.refuseUnsafe(generator.thumbnailPaths(of: frames, at: destination), graph: generator.graph, exampleName: "sheet.png")
            try generator.writeThumbnails(frames, to: destination, size: still.size, title: still.project.path) { print($0) }
        }
    }
}
