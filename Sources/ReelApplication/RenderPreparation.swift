import CompositionGraph
import Foundation
import MediaFormat
import MediaTime
import ProjectCompiler
import ProjectFile
import RenderEngine

/// What a front end asks a render of: the project (its file, and its text loaded once), the
/// var values, the output it names (nil: the project's `output.path`), a part of the
/// timeline, and how the segments are made.
public struct RenderRequest: Sendable {
    public var projectPath: String
    public var document: Document
    public var vars: VarInputs
    /// The file the vars were read from, which is an input too.
    public var varsFile: String?
    /// How the caller's user named the vars file (a command-line option), for messages.
    public var varsInput: String?
    public var output: String?
    /// `START..END` (`RenderRange`).
    public var range: String?
    public var audioOnly: Bool
    public var preset: ExportPreset?
    public var decoderThreads: Int
    public var jobs: Int
    /// Where rendered segments are kept (the cache, or the runner's folder); nil: nowhere.
    public var partsFolder: String?

    public init(projectPath: String, document: Document, vars: VarInputs, varsFile: String?, varsInput: String? = nil, output: String?, range: String?,
                audioOnly: Bool, preset: ExportPreset?, decoderThreads: Int, jobs: Int, partsFolder: String?) {
        self.projectPath = projectPath
        self.varsInput = varsInput
        self.document = document
        self.vars = vars
        self.varsFile = varsFile
        self.output = output
        self.range = range
        self.audioOnly = audioOnly
        self.preset = preset
        self.decoderThreads = decoderThreads
        self.jobs = jobs
        self.partsFolder = partsFolder
    }
}

/// A request that names no usable output, a bad range, or two renditions writing one file.
/// Front ends add how to say it (a flag, a field).
public enum RenderRequestError: Error, Equatable, CustomStringConvertible {
    case noOutput
    case imageSequenceWithoutNumber(path: String, suggestion: String)
    case badRange(String)
    case sharedOutput(first: String, second: String, path: String)

    public var description: String {
        switch self {
        case .noOutput:
            "no output file: name one, or set output.path in the project"
        case .imageSequenceWithoutNumber(let path, let suggestion):
            "\(path): a .\((path as NSString).pathExtension) output is an image sequence, one file a frame, and its name has no frame number; "
                + "put %04d where the number goes: \(suggestion)"
        case .badRange(let message):
            message
        case .sharedOutput(let first, let second, let path):
            "renditions \(first) and \(second) would both write \(path): give each its own path in renditions:"
        }
    }
}

/// A project opened, checked and planned for a segmented render (what `render`, `plan` and
/// `join` share), with its warnings for the front end to show.
public struct PreparedRender {
    public let session: ExportSession
    /// The project as opened: its warnings are the front end's to show.
    public let project: ProjectPipeline.Loaded
    /// The rendition it makes (nil: a project without renditions).
    public let rendition: String?
}

extension Workspace {
    /// Opens `request`'s project as `rendition` (nil: the one its vars ask for) and plans its
    /// render. With `needsOutput`, the output must be named and may not be a file the render
    /// reads. `check` sees the opened project first (a front end's `--strict`).
    public func prepareRender(_ request: RenderRequest, rendition: String? = nil, needsOutput: Bool,
                              check: (ProjectPipeline.Loaded) throws -> Void = { _ in }) throws -> PreparedRender {
        var vars = request.vars
        vars.rendition = rendition ?? vars.rendition
        // A file named here gets the container its name says, and codecs that fit it.
        let target = OutputTarget(path: request.output, audioOnly: request.audioOnly, presetCodecs: request.preset != nil)
        let loaded: ProjectPipeline.Loaded
        do {
            loaded = try open(request.document, vars: vars, target: target)
        } catch {
            // A file the project reads, named as the output, is refused as such, not for the
            // codecs its extension cannot hold: the project as written says which files it reads.
            if needsOutput, let output = request.output, error.category == .invalidProject,
               let asWritten = try? open(request.document, vars: vars).graph {
                let named = rendition.flatMap { RenditionOutputs.path($0, output: output, projectOutput: nil, document: request.document) } ?? output
                try refuseUnsafeOutputs([named], project: request.projectPath, varsFile: request.varsFile, varsInput: request.varsInput, graph: asWritten, exampleName: "out.mp4")
            }
            throw error
        }
        try check(loaded)
        let graph = loaded.graph
        let path = rendition.flatMap { RenditionOutputs.path($0, output: request.output, projectOutput: graph.output.path, document: request.document) }
            ?? request.output ?? graph.output.path
        if needsOutput {
            guard let path else { throw RenderRequestError.noOutput }
            try refuseUnsafeOutputs([path], project: request.projectPath, varsFile: request.varsFile, varsInput: request.varsInput, graph: graph, exampleName: "out.mp4")
            // After the safety check: an output `media/logo.png` is first of all the project's logo.
            if let output = request.output, let container = Container(fileExtension: URL(fileURLWithPath: output).pathExtension),
               container.isImageSequence, !ImageSequencePattern.has(output) {
                throw RenderRequestError.imageSequenceWithoutNumber(path: output, suggestion: ImageSequencePattern.suggestion(for: output))
            }
        }
        var timeRange: TimeRange?
        if let range = request.range {
            do {
                timeRange = try RenderRange.parse(range, duration: graph.duration, fps: graph.videoComposition.frameRate)
            } catch {
                throw RenderRequestError.badRange(error.description)
            }
        }
        let session = try ExportSession(graph: graph, options: ExportOptions(
            outputPath: path ?? "", range: timeRange, decoderThreads: request.decoderThreads, preset: request.preset,
            jobs: request.jobs, partsFolder: request.partsFolder))
        return PreparedRender(session: session, project: loaded, rendition: vars.rendition)
    }

    /// Every rendition the request makes (all of the project's when it asks for none and the
    /// project has some), each opened and checked before the first frame of any. The problems
    /// of the project's renditions are thrown together, each once (`RenditionFindings`).
    public func prepareRenders(_ request: RenderRequest, check: (ProjectPipeline.Loaded) throws -> Void = { _ in }) throws -> [PreparedRender] {
        let renditions: [String?] = RenditionOutputs.all(of: request.document, asked: request.vars.rendition) ?? [nil]
        let outcomes = renditions.map { rendition in Result { try prepareRender(request, rendition: rendition, needsOutput: true, check: check) } }
        let failures = zip(renditions, outcomes).compactMap { rendition, outcome in
            if case .failure(let error) = outcome { (rendition: rendition, error: error) } else { nil }
        }
        if let first = failures.first {
            let projectErrors = failures.compactMap { failure in (failure.error as? ProjectError).map { (rendition: failure.rendition, error: $0) } }
            guard projectErrors.count == failures.count else { throw first.error }
            let loaded = zip(renditions, outcomes).compactMap { rendition, outcome in (try? outcome.get()).map { (rendition: rendition, project: $0.project) } }
            throw RenditionFindings.error(failures: projectErrors, loaded: loaded)
        }
        let prepared = try outcomes.map { try $0.get() }
        if let shared = RenditionOutputs.sharedPath(zip(renditions, prepared.map(\.session.options.outputPath)).map { ($0, $1) }) { throw shared }
        return prepared
    }
}

extension ExportSession.Report {
    /// `out.mp4: 3 segments rendered, 2 reused; audio mixed`: what a render did.
    public func summary(output: String) -> String {
        let audio = self.audio.map { $0 == .reused ? "; audio reused" : "; audio mixed" } ?? ""
        return "\(output): \(counted(rendered.count, "segment")) rendered, \(reused.count) reused\(audio)"
    }
}
