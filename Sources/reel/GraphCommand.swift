import ReelApplication
import ArgumentParser
import Foundation

/// `reel graph PROJECT [--json | --html FILE]`: the compiled composition graph.
struct Graph: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Print a project's composition graph: tracks and segments, instructions and layer instructions, the audio mix and overlays.",
        discussion: """
            Times are exact ("299/30" seconds) and as a clock. The listing is stable, so it diffs well.
            --html writes the timeline as one self-contained web page with thumbnails (docs/timeline-page.md).
            """
    )

    @OptionGroup var project: ProjectOptions

    @Flag(help: "Print the graph as JSON.")
    var json = false

    @Option(help: ArgumentHelp("Write the timeline as a self-contained HTML page to this file.", valueName: "file"))
    var html: String?

    func validate() throws {
        if json && html != nil { throw ValidationError("--json and --html: choose one") }
    }

    func run() throws {
        try reportingFailures {
            let graph = try project.graph()
            guard let html else {
                if json { try graph.writeJSONListing { print($0, terminator: "") } } else { print(graph.listing, terminator: "") }
                return
            }
            try project.refuseUnsafe([html], graph: graph, exampleName: "timeline.html")
            try TimelinePageWithThumbnails.write(graph, title: project.path, to: html)
        }
    }
}
