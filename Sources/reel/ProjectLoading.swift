import ArgumentParser
import CompositionGraph
import Foundation
import ProjectCompiler
import ProjectFile

/// Project file → composition graph, with this machine's media (FFmpeg probe) and fonts.
func loadGraph(projectPath: String, vars: VarValues) throws(ProjectError) -> CompositionGraph {
    try ProjectPipeline.load(path: projectPath, overrides: vars.overrides, overrideSources: vars.sources,
                             media: ProbedMediaFacts(), fonts: CatalogFonts()).graph
}

/// `loadGraph` for a command: the vars its options give; a problem is reported on standard
/// error and thrown as its exit code.
func loadGraph(projectPath: String, options vars: VarOverrides) throws -> CompositionGraph {
    let values = try vars.values()
    do {
        return try loadGraph(projectPath: projectPath, vars: values)
    } catch {
        throw reportAndExitCode(error)
    }
}

/// Var values given on the command line, and the files they were read from.
struct VarValues {
    var overrides: [VarOverride]
    var sources: [SourceText]
}

/// `--vars FILE` and `--set name=value` options. `--set` wins over `--vars`; a repeated
/// `--set` name: the last wins.
struct VarOverrides: ParsableArguments {
    @Option(name: .customLong("vars"), help: ArgumentHelp("Take var values from a JSON or YAML file of name: value.", valueName: "file"))
    var file: String?

    @Option(name: .customLong("set"), help: ArgumentHelp("Override a var: --set headline=\"Summer Sale\".", valueName: "name=value"))
    var assignments: [String] = []

    /// Throws exit status 64 for a malformed `--set`; a bad `--vars` file is reported and
    /// throws its exit code.
    func values() throws -> VarValues {
        var values = VarValues(overrides: [], sources: [])
        if let file {
            do {
                let (overrides, source) = try VarOverride.load(file: file)
                values = VarValues(overrides: overrides, sources: [source])
            } catch {
                throw reportAndExitCode(error)
            }
        }
        for a in assignments {
            guard let eq = a.firstIndex(of: "="), eq != a.startIndex else {
                throw usageFailure("--set takes name=value, got '\(a)'")
            }
            values.overrides.append(VarOverride(name: String(a[..<eq]), input: .text(String(a[a.index(after: eq)...])),
                                                location: .commandLine("--set")))
        }
        return values
    }
}
