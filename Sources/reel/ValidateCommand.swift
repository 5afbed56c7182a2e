import ReelApplication
import ArgumentParser
import ProjectFile

/// `reel validate PROJECT...`: every check that can be made before rendering.
struct Validate: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Check projects: schema, vars, media files and their ranges, fonts. Reports every error at once.",
        discussion: """
        Warnings (what renders but is probably not meant) are printed and do not fail the check unless --strict is given. \
        \(ExitStatus.help([.success: "all valid", .invalidInput: "a project is invalid (or has warnings, with --strict)",
                            .missingFile: "a named file is missing", .tryLater: "a remote media file cannot be fetched now"]))
        """
    )

    @Argument(help: "Project files (.yaml, .yml or .json).")
    var projects: [String]

    @OptionGroup var vars: VarOverrides

    @OptionGroup var fetching: MediaFetching

    @OptionGroup var warnings: StrictOption

    func run() throws {
        let (values, workspace) = try reportingFailures { (try vars.values(), try fetching.workspace()) }
        var worst: Int32 = 0
        for path in projects {
            do {
                for (rendition, outcome) in workspace.openEachRendition(try DocumentLoader.load(path: path), vars: values) {
                    do {
                        let loaded = try outcome.get()
                        try warnings.check(loaded)
                        print("\(path)\(rendition.map { " (rendition \($0))" } ?? ""): valid (\(loaded.graph.summary))")
                    } catch {
                        worst = max(worst, Failure.report(error).rawValue)
                    }
                }
            } catch {
                worst = max(worst, Failure.report(error).rawValue)
            }
        }
        if worst != 0 { throw ExitCode(worst) }
    }
}
