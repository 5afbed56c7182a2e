import ArgumentParser
import CompositionGraph
import Foundation
import ProjectCompiler
import ProjectFile
import RemoteMedia
import RenderEngine

/// Project file → composition graph, with this machine's media (the render engine's facts
/// reader; `http(s)://` media through the media cache) and fonts. Throws `ProjectError`.
/// `target` is what the command line says of the output, which the output settings are fitted to.
/// Its warnings are printed on standard error, or under `strict` thrown as errors.
func loadGraph(projectPath: String, vars: VarValues, remote: RemoteMediaCache,
               target: OutputTarget = OutputTarget(), strict: Bool = false) throws(ProjectError) -> CompositionGraph {
    let loaded = try loadProject(projectPath: projectPath, vars: vars, remote: remote, target: target)
    try report(warnings: loaded, strict: strict)
    return loaded.graph
}

/// `loadGraph` with the document and the typed project it was compiled from; its warnings
/// are the caller's to report (`report(warnings:strict:)`).
func loadProject(projectPath: String, vars: VarValues, remote: RemoteMediaCache,
                 target: OutputTarget = OutputTarget()) throws(ProjectError) -> ProjectPipeline.Loaded {
    try ProjectPipeline.load(path: projectPath, overrides: vars.overrides, overrideSources: vars.sources, rendition: vars.rendition, target: target,
                             media: mediaFacts, fonts: CatalogFonts(), remote: remote)
}

/// A loaded project's warnings on standard error, each at its line; under `--strict` they are
/// errors instead (exit 65), so CI stops on them.
func report(warnings loaded: ProjectPipeline.Loaded, strict: Bool) throws(ProjectError) {
    guard !loaded.warnings.isEmpty else { return }
    let sources = [loaded.document.source]
    if strict {
        throw ProjectError(.invalidProject, diagnostics: loaded.warnings.map {
            var error = $0
            error.severity = .error
            error.hint = [$0.hint, "--strict makes this warning an error"].compactMap { $0 }.joined(separator: "; ")
            return error
        }, sources: sources)
    }
    FileHandle.standardError.write(Data((DiagnosticRenderer(sources: sources).render(loaded.warnings) + "\n").utf8))
}

/// `--strict`: for CI, a warning fails the command as an error would.
struct StrictOption: ParsableArguments {
    @Flag(help: "Treat warnings (sound after the last picture, a cut fade, text outside the frame…) as errors: exit 65.")
    var strict = false
}

/// One reader for the process: a file whose stamp has not changed is not probed again (`reel
/// preview` loads the project on every edit).
private let mediaFacts = MediaFactsReader()

/// `loadGraph` with the vars and the media fetching a command's options give.
func loadGraph(projectPath: String, options vars: VarOverrides, fetching: MediaFetching,
               target: OutputTarget = OutputTarget()) throws -> CompositionGraph {
    try loadGraph(projectPath: projectPath, vars: try vars.values(), remote: try fetching.cache(), target: target)
}

/// Var values given on the command line, the files they were read from, and the rendition
/// asked for (nil: the project's first, if it has renditions).
struct VarValues {
    var overrides: [VarOverride]
    var sources: [SourceText]
    var rendition: String? = nil
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
    func values() throws -> VarValues {
        var values = VarValues(overrides: [], sources: [], rendition: rendition)
        if let file {
            let (overrides, source) = try VarOverride.load(file: file)
            values = VarValues(overrides: overrides, sources: [source], rendition: rendition)
        }
        for a in assignments {
            guard let eq = a.firstIndex(of: "="), eq != a.startIndex else {
                throw UsageError("--set takes name=value, got '\(a)'")
            }
            values.overrides.append(VarOverride(name: String(a[..<eq]), input: .text(String(a[a.index(after: eq)...])),
                                                location: .commandLine("--set")))
        }
        return values
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
