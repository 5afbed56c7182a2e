import ArgumentParser
import CompositionGraph
import Foundation
import MediaIO
import MediaTime
import TimelinePage

/// `reel graph PROJECT [--json | --html FILE]`: the compiled composition graph.
struct Graph: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Print a project's composition graph: tracks and segments, instructions and layer instructions, the audio mix and overlays.",
        discussion: """
            Times are exact ("299/30" seconds) and as a clock. The listing is stable, so it diffs well.
            --html writes the timeline as one self-contained web page with thumbnails (docs/timeline-page.md).
            """
    )

    @Argument(help: "A project file.")
    var project: String

    @Flag(help: "Print the graph as JSON.")
    var json = false

    @Option(help: ArgumentHelp("Write the timeline as a self-contained HTML page to this file.", valueName: "file"))
    var html: String?

    @OptionGroup var vars: VarOverrides

    func validate() throws {
        if json && html != nil { throw ValidationError("--json and --html: choose one") }
    }

    func run() throws {
        let graph = try loadGraph(projectPath: project, options: vars)
        guard let html else {
            print(json ? try graph.jsonListing() : graph.listing, terminator: "")
            return
        }
        // A first pass only collects the pictures the page shows, so they can be made file by
        // file in time order: each decoder then reads forward instead of seeking back and forth.
        var wanted: [(MediaReference, MediaTime)] = []
        _ = TimelinePage.html(for: graph, title: project) { wanted.append(($0, $1)); return nil }
        let thumbnails = ThumbnailMaker()
        thumbnails.prepare(wanted)
        let page = TimelinePage.html(for: graph, title: project, thumbnail: thumbnails.thumbnail)
        try reportingRenderErrors { try PNGEncoder.writeAtomically(Array(page.utf8), to: html) }
    }
}
