import ArgumentParser
import MediaIO

/// `reel probe FILE [--json]`: what is in a media file.
struct Probe: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Show the container, streams, times, sizes, rotation and colour of a media file."
    )

    @Argument(help: "A video, audio or image file.")
    var file: String

    @Flag(help: "Print JSON (exact times as \"num/den\" strings) instead of text.")
    var json = false

    func run() throws {
        let info = try MediaProbe.probe(path: file)
        print(json ? info.json : info.text)
    }
}
