import ArgumentParser
import Foundation
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
        do {
            let info = try MediaProbe.probe(path: file)
            print(json ? info.json : info.text)
        } catch let error as MediaError {
            FileHandle.standardError.write(Data("error: \(error)\n".utf8))
            throw ExitCode(error.kind == .fileNotFound || error.kind == .notAFile ? 66 : 65)
        }
    }
}
