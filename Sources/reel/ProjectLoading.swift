import ReelApplication
import ArgumentParser
import CompositionGraph
import Foundation
import ProjectCompiler
import ProjectFile
import RenderEngine

/// `--strict`: for CI, a warning fails the command as an error would.
struct StrictOption: ParsableArguments {
    @Flag(help: "Treat warnings (sound after the last picture, a cut fade, text outside the frame…) as errors: exit 65.")
    var strict = false

    /// A loaded project's warnings on standard error, each at its line; under `--strict` they
    /// are errors instead (exit 65), so CI stops on them.
    func check(_ loaded: ProjectPipeline.Loaded) throws(ProjectError) {
        if let errors = failure(loaded) { throw errors }
        printWarnings(loaded)
    }

    /// Under `--strict`, the loaded project's warnings as errors; else nil.
    func failure(_ loaded: ProjectPipeline.Loaded) -> ProjectError? {
        strict ? ErrorText.warningsAsErrors(loaded, why: "--strict makes this warning an error") : nil
    }
}

/// A loaded project's warnings, if any, on standard error.
func printWarnings(_ loaded: ProjectPipeline.Loaded) {
    guard !loaded.warnings.isEmpty else { return }
    FileHandle.standardError.write(Data((ErrorText.warnings(loaded) + "\n").utf8))
}

/// The project a command reads, and what shapes it: its vars and the fetching of its remote media.
struct ProjectOptions: ParsableArguments {
    @Argument(help: "The project file (YAML or JSON).")
    var path: String

    @OptionGroup var vars: VarOverrides

    @OptionGroup var fetching: MediaFetching

    /// The project compiled as the options say, its warnings printed on standard error (for
    /// the commands without `--strict`).
    func graph() throws -> CompositionGraph {
        let loaded = try fetching.workspace().open(path, vars: try vars.values())
        printWarnings(loaded)
        return loaded.graph
    }

    /// Refuses `outputs` that are the project, its `--vars` file or a file `graph` reads.
    func refuseUnsafe(_ outputs: [String], graph: CompositionGraph, exampleName: String) throws {
        try refuseUnsafeOutputs(outputs, project: path, varsFile: vars.file, varsInput: "--vars", graph: graph, exampleName: exampleName)
    }
}

/// `--vars FILE`, `--set name=value` and `--rendition NAME`: which values of the project to
/// use. `--set` wins over `--vars`, and both over the rendition's vars; a repeated `--set`
/// name: the last wins.
struct VarOverrides: ParsableArguments {
    @Option(help: ArgumentHelp("Use this one of the project's renditions (default: the first; reel render makes them all).", valueName: "name"))
    var rendition: String?

    @Option(name: .customLong("vars"), help: ArgumentHelp("Take var values from a JSON or YAML file of name: value.", valueName: "file"))
    var file: String?

    @Option(name: .customLong("set"), help: ArgumentHelp("Override a var: --set headline=\"Summer Sale\".", valueName: "name=value"))
    var assignments: [String] = []

    /// Throws `UsageError` for a malformed `--set`, `ProjectError` for a bad `--vars` file.
    func values() throws -> VarInputs {
        try VarInputs(varsFile: file, set: try setValues(), rendition: rendition, renditionInput: "--rendition")
    }

    /// The `--set` values alone. Throws `UsageError` for one without `name=`.
    func setValues() throws -> [VarOverride] {
        try assignments.map { a in
            let (name, value) = try pair(a, "--set", emptyValue: true)
            return VarOverride(name: name, input: .text(value), location: .commandLine("--set"))
        }
    }
}

/// `--threads` and `--preset`: how the frames are decoded and encoded, for every command that
/// renders frames.
struct EncodingOptions: ParsableArguments {
    @Option(help: "Threads per video decoder: speed only, the output is the same for any value.")
    var threads: Int = ExportOptions.defaultThreads

    @Option(help: ArgumentHelp("Replace the output settings by a preset (docs/render.md).", valueName: "preset"))
    var preset: ExportPreset?

    func validate() throws {
        guard threads >= 1 else { throw ValidationError("--threads must be at least 1, not \(threads)") }
    }
}

extension ExportPreset: ExpressibleByArgument {}
extension ProgressStyle: ExpressibleByArgument {}
