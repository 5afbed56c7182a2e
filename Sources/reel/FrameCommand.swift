import ReelApplication
import ArgumentParser
import Foundation
import MediaIO
import MediaTime

/// `reel frame PROJECT --at 3.5s [-o frame.png] [--size 640x]`: one output frame as a PNG.
struct Frame: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Render the output frame on screen at one time to a PNG, without rendering anything else.",
        discussion: """
        The picture is the one the video has at that time before encoding: the same decoding, \
        compositing and overlays as reel render (frame n covers [n, n+1) × the frame duration). \
        \(ExitStatus.help([.success: "done", .usage: "bad usage", .invalidInput: "invalid project",
                            .missingFile: "a file is missing", .cannotWrite: "cannot write the PNG", .tryLater: "a remote media file cannot be fetched now"]))
        """
    )

    @OptionGroup var still: StillOptions

    @Option(help: ArgumentHelp("The time on the timeline: 3.5s, 00:00:03.500, 105f…", valueName: "time"))
    var at: String

    @Option(name: .shortAndLong, help: ArgumentHelp("The PNG to write; default: frame-N.png (N the frame number).", valueName: "file"))
    var output: String?

    func run() throws {
        try reportingFailures {
            let generator = try still.generator()
            let t = try parseTime(at, option: "--at", fps: generator.graph.videoComposition.frameRate)
            let duration = generator.graph.duration
            guard !t.isNegative, t < duration else {
                let last = generator.time(ofFrame: generator.frameCount - 1)
                throw UsageError("--at '\(at)' is outside the timeline, which is \(TimeNotation.clock(duration)) long; its last frame starts at \(TimeNotation.clock(last))")
            }
            let n = try generator.frameIndex(at: t)
            let size = still.size?.fitting(generator.graph.videoComposition.renderSize) ?? generator.graph.videoComposition.renderSize
            let path = output ?? "frame-\(n).png"
            try still.project.refuseUnsafe([path], graph: generator.graph, exampleName: "frame.png")
            try PNGEncoder.write(try generator.image(n, size: size), to: path)
            print("\(path): frame \(n) at \(TimeNotation.clock(generator.time(ofFrame: n))), \(size)")
        }
    }
}
