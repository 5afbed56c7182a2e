import ReelApplication
import ArgumentParser
import CompositionGraph
import Foundation
import ProjectCompiler
import ProjectFile
import RemoteMedia
import RenderEngine

/// Project file → composition graph, opened by `workspace` (this machine's media and fonts,
/// the media cache). Its warnings are printed on standard error, or under `strict` thrown as
/// errors. `target` is what the command line says of the output, which the output settings
/// are fitted to.
func loadGraph(projectPath: String, vars: VarInputs, workspace: Workspace,
               target: OutputTarget = OutputTarget(), strict: Bool = false) throws(ProjectError) -> CompositionGraph {
    let loaded = try workspace.open(projectPath, vars: vars, target: target)
    try report(warnings: loaded, strict: strict)
    return loaded.graph
}

/// A loaded project's warnings on standard error, each at its line; under `--strict` they are
/// errors instead (exit 65), so CI stops on them.
func report(warnings loaded: ProjectPipeline.Loaded, strict: Bool) throws(ProjectError) {
    guard !loaded.warnings.isEmpty else { return }
    if strict {
        throw ProjectError(.invalidProject, diagnostics: loaded.warnings.map {
            var error = $0
            error.severity = .error
            error.hint = [$0.hint, "--strict makes this warning an error"].compactMap { $0 }.joined(separator: "; ")
            return error
        }, sources: [loaded.document.source])
    }
    FileHandle.standardError.write(Data((ErrorText.warnings(loaded) + "\n").utf8))
}

/// `--strict`: for CI, a warning fails the command as an error would.
struct StrictOption: ParsableArguments {
    @Flag(help: "Treat warnings (sound after the last picture, a cut fade, text outside the frame…) as errors: exit 65.")
    var strict = false
}

/// `loadGraph` with the vars and the media fetching a command's options give.
func loadGraph(projectPath: String, options vars: VarOverrides, fetching: MediaFetching,
               target: OutputTarget = OutputTarget()) throws -> CompositionGraph {
    try loadGraph(projectPath: projectPath, vars: try vars.values(), workspace: try fetching.workspace(), target: target)
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
        var values = VarInputs(rendition: rendition, renditionInput: "--rendition")
        if let file {
            let (overrides, source) = try VarOverride.load(file: file)
            values = VarInputs(overrides: overrides, sources: [source], rendition: rendition, renditionInput: "--rendition")
        }
        values.overrides += try setValues()
        return values
    }

    /// The `--set` values alone. Throws `UsageError` for one without `name=`.
    func setValues() throws -> [VarOverride] {
        try assignments.map { a in
            guard let eq = a.firstIndex(of: "="), eq != a.startIndex else {
                throw UsageError("--set takes name=value, got '\(a)'")
            }
            return VarOverride(name: String(a[..<eq]), input: .text(String(a[a.index(after: eq)...])), location: .commandLine("--set"))
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
