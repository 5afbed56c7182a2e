import ArgumentParser
import ProjectFile

/// `reel graph PROJECT [--json]`: the compiled composition graph.
struct Graph: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Print a project's composition graph: tracks and segments, instructions and layer instructions, the audio mix and overlays.",
        discussion: "Times are exact (\"299/30\" seconds) and as a clock. The listing is stable, so it diffs well."
    )

    @Argument(help: "A project file.")
    var project: String

    @Flag(help: "Print the graph as JSON.")
    var json = false

    @OptionGroup var vars: VarOverrides

    func run() throws {
        do {
            let graph = try loadGraph(projectPath: project, vars: try vars.values())
            print(json ? try graph.jsonListing() : graph.listing, terminator: "")
        } catch let error as ProjectError {
            throw reportAndExitCode(error)
        }
    }
}
