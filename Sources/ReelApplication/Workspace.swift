import CompositionGraph
import Foundation
import NetworkPolicy
import ProjectCompiler
import ProjectFile
import RemoteMedia
import RenderEngine

/// What every front end (the command line, the preview server) opens projects with: this
/// machine's media facts (each file probed once while its stamp holds), its fonts as the
/// overlay renderer will see them, one cache of remote media, and for a service the folders
/// its projects may read. One per command or server.
public final class Workspace: Sendable {
    public let remote: RemoteMediaCache
    /// The only files the projects opened may read (a service's); nil: any file, relative to
    /// the project's own (the command line, the preview).
    public let mediaRoots: MediaRoots?
    let media = MediaFactsReader()

    public init(remote: RemoteMediaCache, mediaRoots: MediaRoots? = nil) {
        self.remote = remote
        self.mediaRoots = mediaRoots
    }

    /// A workspace whose media cache takes its settings from `environment` (`REEL_CACHE_DIR`,
    /// `REEL_OFFLINE`, `REEL_FETCH_*`; `offline` too), reports each fetch to `report`, and lets
    /// `interruptions` cancel a fetch. `offlineSwitch` is how the front end's user turns fetching
    /// off, for hints; `addressPolicy` the addresses fetches may reach (nil: any). Throws a
    /// malformed setting, with what it should be.
    public convenience init(environment: [String: String], offline: Bool, offlineSwitch: String, addressPolicy: AddressPolicy? = nil,
                            report: @escaping @Sendable (FetchEvent) -> Void,
                            interruptions: @escaping @Sendable (_ cancel: @escaping @Sendable () -> Void) -> AnyObject?) throws(SettingsError) {
        var settings = try RemoteMediaSettings.fromEnvironment(environment, offline: offline)
        settings.offlineSwitch = offlineSwitch
        settings.addressPolicy = addressPolicy
        self.init(remote: RemoteMediaCache(settings: settings, report: report, interruptions: interruptions))
    }

    /// The project file at `path`, validated and compiled with `vars`; `target` is what the
    /// front end says of the output, which the output settings are fitted to. Its warnings
    /// are in the result, for the front end to show. Throws every problem found, at once.
    public func open(_ path: String, vars: VarInputs = VarInputs(), target: OutputTarget = OutputTarget()) throws(ProjectError) -> ProjectPipeline.Loaded {
        try open(try DocumentLoader.load(path: path), vars: vars, target: target)
    }

    /// A project given as a loaded document (from text or a JSON value, as a service receives it).
    public func open(_ document: Document, vars: VarInputs = VarInputs(), target: OutputTarget = OutputTarget()) throws(ProjectError) -> ProjectPipeline.Loaded {
        try ProjectPipeline.load(document, overrides: vars.overrides, overrideSources: vars.sources, rendition: vars.rendition,
                                 renditionInput: vars.renditionInput, target: target,
                                 media: media, fonts: CatalogFonts(), remote: remote, paths: mediaRoots)
    }
}

/// Var values given from outside the project (`--set`, a vars file, a batch row, the preview
/// page), the texts they were read from (for diagnostics), and the rendition asked for (nil:
/// the project's first, if it has renditions). A later value for the same var wins.
public struct VarInputs: Sendable {
    public var overrides: [VarOverride]
    public var sources: [SourceText]
    public var rendition: String?
    /// The name of the input `rendition` came from, where an unknown one is reported.
    public var renditionInput: String

    /// The values of a vars file (read now), then `set` (which win), as `rendition`.
    public init(varsFile: String?, set: [VarOverride], rendition: String?, renditionInput: String) throws(ProjectError) {
        let file = try varsFile.map { path throws(ProjectError) in try VarOverride.load(file: path) }
        self.init(overrides: (file?.overrides ?? []) + set, sources: file.map { [$0.source] } ?? [], rendition: rendition, renditionInput: renditionInput)
    }

    public init(overrides: [VarOverride] = [], sources: [SourceText] = [], rendition: String? = nil, renditionInput: String = "rendition") {
        self.overrides = overrides
        self.sources = sources
        self.rendition = rendition
        self.renditionInput = renditionInput
    }
}

extension Workspace {
    /// Opens `document` as every rendition `vars` asks for (all of them when it asks for none
    /// and the project has some; else the one asked or none): what `reel validate` checks.
    /// Each rendition's outcome is its own, so one invalid rendition does not hide another.
    public func openEachRendition(_ document: Document, vars: VarInputs) -> [(rendition: String?, outcome: Result<ProjectPipeline.Loaded, ProjectError>)] {
        let renditions: [String?] = RenditionOutputs.all(of: document, asked: vars.rendition) ?? [vars.rendition]
        return renditions.map { rendition in
            var chosen = vars
            chosen.rendition = rendition
            return (rendition, Result { () throws(ProjectError) in try open(document, vars: chosen) })
        }
    }
}
