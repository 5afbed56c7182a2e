import CompositionGraph
import MediaTime
import ProjectFile

/// The front end in one call: load the file, check the version, validate against the
/// schema, substitute vars, validate again, apply the defaults, decode, compile. Every problem found on the way
/// is reported together; nothing is rendered from a project with errors.
public enum ProjectPipeline {
    public struct Loaded: Sendable {
        public var document: Document
        public var project: Project
        public var graph: CompositionGraph
        /// Where each clip landed (for exporters).
        public var layout: TimelineLayout
        /// What renders but is probably not what was meant (sound after the last picture, a
        /// cut fade…), in source order: printed, and errors under `--strict`.
        public var warnings: [Diagnostic]
    }

    /// `overrides` set vars from outside the project (`--set`, `--vars`, a batch row; a later
    /// value for the same var wins); `overrideSources` are the texts they were read from, so
    /// that diagnostics can quote them. `target` is what the command line says of the output
    /// (`-o`, `--audio-only`), which the output settings are fitted to. A project with
    /// `renditions:` is loaded as rendition `rendition` (default: its first; an unknown one is
    /// reported at `renditionInput`, the name of the input that gave it). `remote` gives
    /// the local copies of `http(s)://` media. `paths` finds the files the project names (nil:
    /// relative to its file). `ancestors` are the project files this one is nested in
    /// (outermost first).
    public static func load(path: String, overrides: [VarOverride] = [], overrideSources: [SourceText] = [], rendition: String? = nil,
                            target: OutputTarget = OutputTarget(), media: any MediaFactsProvider,
                            fonts: (any FontResolver)?, remote: (any RemoteMediaLocator)? = nil, paths: (any ProjectPathResolver)? = nil,
                            ancestors: [String] = []) throws(ProjectError) -> Loaded {
        let document = try DocumentLoader.load(path: path)
        return try load(document, overrides: overrides, overrideSources: overrideSources, rendition: rendition, target: target,
                        media: media, fonts: fonts, remote: remote, paths: paths, ancestors: ancestors)
    }

    public static func load(_ document: Document, overrides: [VarOverride] = [], overrideSources: [SourceText] = [], rendition: String? = nil,
                            renditionInput: String = "rendition",
                            target: OutputTarget = OutputTarget(), media: any MediaFactsProvider,
                            fonts: (any FontResolver)?, remote: (any RemoteMediaLocator)? = nil, paths: (any ProjectPathResolver)? = nil,
                            ancestors: [String] = []) throws(ProjectError) -> Loaded {
        var cueSources: [SourceText] = []
        func fail(_ diagnostics: [Diagnostic], _ category: ProjectError.Category = .invalidProject) -> ProjectError {
            ProjectError(category, diagnostics: diagnostics, sources: [document.source] + overrideSources + cueSources)
        }
        if let problem = versionProblem(document.root) { throw fail([problem]) }
        // Each stage reports what it finds and hands the next the document without the values
        // it found invalid, so one run reports every independent problem.
        var checks = StagedChecks()
        let schema = try DocumentSchema.bundled()
        let raw = schema.check(document.root)
        guard let valid = checks.add(raw.diagnostics, invalid: raw.invalidPaths, in: document.root) else { throw fail(checks.found) }
        var chosen = (root: valid, vars: [VarOverride]())
        var selectedRendition = false
        let renditions = Renditions.names(in: valid)
        if let name = rendition ?? renditions.first {
            guard let selected = Renditions.select(name, in: valid) else {
                throw ProjectError(.usage, Diagnostic(location: .commandLine(renditionInput), path: "",
                                                      message: Renditions.unknown(name, among: renditions)))
            }
            chosen = selected
            selectedRendition = true
        }
        var vars = VarsSubstitution(document: chosen.root)
        let overrideProblems = vars.override(chosen.vars + overrides)
        let (applied, varProblems, changed) = vars.substitution(in: chosen.root)
        checks.add(overrideProblems)
        // A value whose vars cannot be filled in is as unusable as an invalid one.
        guard let substituted = checks.add(varProblems, invalid: Set(varProblems.map(\.path)), in: applied) else { throw fail(checks.found) }
        // A valid document that neither a rendition nor a var changed is the one checked already.
        let unchanged = raw.diagnostics.isEmpty && varProblems.isEmpty && !changed && !selectedRendition
        let typed = unchanged ? raw : schema.check(substituted)
        guard let typedRoot = checks.add(typed.diagnostics, invalid: typed.invalidPaths, in: substituted) else { throw fail(checks.found) }
        let absurd = ProjectLimits.numberProblems(typedRoot)
        guard let limited = checks.add(absurd, invalid: Set(absurd.map(\.path)), in: typedRoot) else { throw fail(checks.found) }
        let defaulted = ProjectDefaults.applied(to: limited)
        checks.add(defaulted.problems)
        let root = defaulted.root

        var decoder = ProjectDecoder(file: document.source.name, target: target, paths: paths, nested: !ancestors.isEmpty)
        decoder.strings = WrittenStrings(source: document.source, document: chosen.root, vars: vars)
        let project = decoder.decode(NodeCursor(root, path: ""))
        var compiler = Compiler(media: media, fonts: fonts, remote: remote)
        compiler.ancestors = ancestors
        compiler.paths = paths
        let result = compiler.compile(project)
        cueSources = result.sources
        checks.addDependent(decoder.problems.diagnostics + result.diagnostics)
        let found = checks.found
        guard !found.contains(where: { $0.severity == .error }), var graph = result.graph, let layout = result.layout else {
            // A cancelled fetch outweighs a missing file, which outweighs one that could not be
            // fetched now, which outweighs an invalid project.
            throw fail(found, result.cancelled ? .cancelled : result.missingFile ? .missingFile
                       : result.unavailable ? .unavailable : .invalidProject)
        }
        // A project with sound and no pictures is written as audio alone (a silent one without
        // pictures stays a video of its background).
        if !ProjectDecoder.hasVideo(NodeCursor(root, path: "")), graph.hasAudio { graph.output.video = nil }
        guard graph.duration.isPositive else {
            throw fail([Diagnostic(location: root.location, path: "", message: "the timeline is empty: there is nothing to render",
                                   hint: "add clips to a track, or set output.duration")])
        }
        guard graph.output.video != nil || graph.hasAudio else {
            let place = root["output"] ?? root
            throw fail([Diagnostic(location: place.location, path: "output",
                                   message: "the output holds audio only (\(audioOnlyReason(graph, target))) but the project has no sound",
                                   hint: "add an audio track or a clip with sound, or write a video file")])
        }
        guard graph.duration <= ProjectLimits.maxTime else {
            throw fail([Diagnostic(location: root.location, path: "",
                                   message: "the timeline lasts \(TimeNotation.seconds(graph.duration)), longer than \(ProjectLimits.maxTimeSeconds / 3600) hours, the longest Reel renders",
                                   hint: "split the project, or set output.duration")])
        }
        return Loaded(document: document, project: project, graph: graph, layout: layout, warnings: found)
    }

    /// Why a silent project's output has no video, for messages: asked for, or the container.
    static func audioOnlyReason(_ graph: CompositionGraph, _ target: OutputTarget) -> String {
        target.audioOnly ? "audio alone was asked for" : "a \(graph.output.container?.rawValue ?? "audio-only") file"
    }

    /// `reel: 1` is checked before anything else, so a file from another format version gets
    /// one clear message instead of many schema errors.
    static func versionProblem(_ root: Node) -> Diagnostic? {
        guard case .object = root.value else { return nil }
        guard let version = root["reel"] else {
            return Diagnostic(location: root.location, path: "", message: "this is not a Reel project: it has no 'reel' version key",
                              hint: "start the file with 'reel: 1'")
        }
        if case .number(let text) = version.value, text == "1" { return nil }
        let found: String
        switch version.value {
        case .number(let t), .string(let t): found = "'\(t)'"
        default: found = "a value that is not a number"
        }
        return Diagnostic(location: version.location, path: "reel", message: "unsupported format version \(found); this Reel reads format 1",
                          hint: "write 'reel: 1' (or use the Reel release that reads this version)")
    }
}
