import ReelApplication
import ArgumentParser
import Foundation
import MediaFormat
import MediaIO
import MediaTime
import RenderEngine

/// `reel probe FILE [--json] [--frame T -o f.png [--size 640x]]`: what is in a media file,
/// or one of its frames as a PNG.
struct Probe: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Show the container, streams, times, sizes, rotation and colour of a media file, or save one of its frames.",
        discussion: """
        With --frame, writes the frame shown at that time (from the file's first frame; turned upright \
        by its rotation) to a PNG instead. \(ExitStatus.help([.success: "done", .usage: "bad usage", .invalidInput: "unreadable media",
                                                          .missingFile: "no such file", .cannotWrite: "cannot write the PNG"]))
        """
    )

    @Argument(help: "A video, audio or image file, or an image sequence (shots/f%04d.png).")
    var file: String

    @Option(help: ArgumentHelp("An image sequence's frame rate, as a project's media entry gives it: 24, 29.97 or 30000/1001 (default 25).",
                               valueName: "rate"))
    var fps: String?

    @Flag(help: "Print JSON (exact times as \"num/den\" strings) instead of text.")
    var json = false

    @Option(help: ArgumentHelp("Save the frame shown at this time (3.5s, 00:00:03.500, 105f…) as a PNG.", valueName: "time"))
    var frame: String?

    @Option(name: .shortAndLong, help: ArgumentHelp("The PNG for --frame.", valueName: "file"))
    var output: String?

    @Option(help: ArgumentHelp("Scale the --frame PNG: 640x, x360 or 640x360 (fit inside).", valueName: "size"),
            transform: StillSize.init(parsing:))
    var size: StillSize?

    func validate() throws {
        if frame == nil, output != nil || size != nil { throw ValidationError("-o and --size go with --frame") }
        if frame != nil, output == nil { throw ValidationError("--frame needs -o FILE.png") }
        if frame != nil, json { throw ValidationError("--json and --frame do not go together") }
        if fps != nil, !ImageSequencePattern.has(file) {
            throw ValidationError("--fps applies only to an image sequence, a FILE named with a frame number pattern such as shots/f%04d.png")
        }
    }

    func run() throws {
        try reportingFailures {
            let rate = try fps.map(parseRate)
            if let frame, let output {
                try saveFrame(at: frame, to: output, sequenceRate: rate)
            } else {
                let info = try MediaProbe.probe(path: file, sequenceRate: rate)
                print(json ? info.json : info.text)
            }
        }
    }

    /// The frame shown at `text` (a time from the file's first frame).
    private func saveFrame(at text: String, to output: String, sequenceRate: Rational?) throws {
        let still = try MediaStill(file: file, sequenceRate: sequenceRate)
        let t = try parseTime(text, option: "--frame", fps: still.frameRate)
        if let duration = still.facts.duration, t.isNegative || t >= duration {
            throw UsageError("--frame '\(text)' is outside \(file), which is \(TimeNotation.clock(duration)) long")
        }
        print(try still.save(at: t, to: output, size: size))
    }
}
