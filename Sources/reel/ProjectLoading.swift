import ArgumentParser
import CompositionGraph
import Foundation
import ProjectCompiler
import ProjectFile

/// Project file → composition graph, with this machine's media (FFmpeg probe) and fonts.
func loadGraph(projectPath: String, sets: [String: String]) throws(ProjectError) -> CompositionGraph {
    try ProjectPipeline.load(path: projectPath, sets: sets, media: ProbedMediaFacts(), fonts: CatalogFonts()).graph
}

/// `--set name=value` options, parsed into a dictionary (a repeated name: the last wins).
struct VarOverrides: ParsableArguments {
    @Option(name: .customLong("set"), help: ArgumentHelp("Override a var: --set headline=\"Summer Sale\".", valueName: "name=value"))
    var assignments: [String] = []

    func values() throws -> [String: String] {
        var result: [String: String] = [:]
        for a in assignments {
            guard let eq = a.firstIndex(of: "="), eq != a.startIndex else {
                throw ValidationError("--set takes name=value, got '\(a)'")
            }
            result[String(a[..<eq])] = String(a[a.index(after: eq)...])
        }
        return result
    }
}

/// Prints a project error to standard error and turns it into its exit code.
func reportAndExitCode(_ error: ProjectError) -> ExitCode {
    FileHandle.standardError.write(Data((error.description + "\n").utf8))
    let count = error.diagnostics.count
    if count > 1 { FileHandle.standardError.write(Data("\(count) errors\n".utf8)) }
    return ExitCode(error.exitCode)
}
