import ReelApplication
import ArgumentParser
import CompositionGraph
import Foundation
import MediaTime
import ProjectCompiler
import ProjectFile
import RenderEngine

/// `reel render PROJECT [-o OUT] [--set k=v]... [--range 5s..12s] [--jobs N] [--preset P] [--progress json]`,
/// and one segment of it: `reel render PROJECT --segment K --parts DIR`.
struct Render: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Render a project to a video file.",
        discussion: """
        The video is rendered in segments (output.segment long, \(TimeNotation.seconds(OutputSettings.defaultSegmentLength)) by default), \
        several at once with --jobs, and joined without re-encoding; the file is the same bytes for any --jobs or --threads. \
        Rendered segments are kept in a cache (REEL_CACHE_DIR, else $XDG_CACHE_HOME/reel/parts or ~/.cache/reel/parts) \
        and reused when their content is unchanged, so a re-render after an edit redoes only the segments it touches. \
        A project with renditions: makes each of them, to its own file (its name before the extension), \
        unless --rendition picks one. \
        With --segment K --parts DIR, renders only segment K (see reel plan) into DIR, for reel join. \
        \(ExitStatus.help([.success: "done", .usage: "bad usage", .invalidInput: "invalid project or settings",
                            .missingFile: "a file is missing", .cannotWrite: "cannot write the output",
                            .tryLater: "a remote media file cannot be fetched now",
                            .failure: "a failure while rendering (the message names the media file and time)", .cancelled: "cancelled"]))
        """
    )

    @OptionGroup var project: ProjectOptions

    @Option(name: .shortAndLong, help: "Output file; the container follows its extension. Default: the project's output.path.")
    var output: String?

    @Option(help: ArgumentHelp("Render only this part of the timeline, e.g. 5s..12s.", valueName: "start..end"))
    var range: String?

    @OptionGroup var rendering: RenderingOptions

    @Option(help: ArgumentHelp("Render only this segment (a number from reel plan) into --parts.", valueName: "k"))
    var segment: Int?

    @Option(help: ArgumentHelp("auto: a live line on a terminal; json: one JSON object a second on stdout; none.", valueName: "style"))
    var progress: ProgressStyle = .auto

    @Option(name: .customLong("media-root"), help: ArgumentHelp(
        "Read files only inside this folder (repeatable): the project's relative paths are looked up in the roots in order, "
            + "and an absolute path or one leading outside them is refused, as reel serve reads a posted project.", valueName: "dir"))
    var mediaRoots: [String] = []

    /// A service's render: it stops (as on SIGTERM) once its standard input ends, when the
    /// service that started it dies.
    @Flag(name: .customLong(String(ChildRenderLine.stopsWithInput.dropFirst(2))), help: .hidden)
    var stopWithInput = false

    func validate() throws {
        if segment != nil, rendering.parts == nil { throw ValidationError("--segment needs --parts FOLDER to put the segment in") }
        if segment != nil, output != nil { throw ValidationError("--segment renders a part, not a file: leave out -o, and join the parts with reel join") }
    }

    func run() throws {
        if stopWithInput { StopWithInput.start() }
        try reportingFailures {
            let workspace = try self.workspace()
            let request = try rendering.request(project: project, output: output, range: range)
            if let segment {
                let session = try workspace.prepareRender(request, needsOutput: false, check: rendering.warnings.check).session
                let signals = SignalCancellation { session.cancel() }
                defer { withExtendedLifetime(signals) {} }
                guard session.plan.segments.indices.contains(segment) else {
                    throw UsageError("--segment \(segment): the plan has segments 0…\(session.plan.segments.count - 1) (see reel plan)")
                }
                let reporter = ProgressReporter(style: progress, totalFrames: session.plan.segments[segment].frameCount, isTerminal: isatty(STDERR_FILENO) != 0)
                defer { reporter.finish() }
                try session.renderSegment(segment) { reporter.update(framesDone: $0) }
                if progress != .json { print("segment \(segment): \(session.partPath(session.plan.segments[segment]))") }
                return
            }
            // Every rendition is loaded and checked before the first frame of any.
            let prepared = try workspace.prepareRenders(request) { loaded throws(ProjectError) in
                if let errors = rendering.warnings.failure(loaded) { throw errors }
            }
            if let warnings = RenditionFindings.warnings(prepared.map { ($0.rendition, $0.project) }) {
                FileHandle.standardError.write(Data((warnings + "\n").utf8))
            }
            for session in prepared.map(\.session) {
                let signals = SignalCancellation { session.cancel() }
                defer { withExtendedLifetime(signals) {} }
                let reporter = ProgressReporter(style: progress, totalFrames: session.frameCount, segments: session.plan.segments.count,
                                                isTerminal: isatty(STDERR_FILENO) != 0)
                let report: ExportSession.Report
                do {
                    defer { reporter.finish() }
                    report = try session.run { frames in reporter.update(framesDone: frames) }
                }
                report.announce(output: session.options.outputPath, style: progress)
            }
        }
    }
}

extension Render {
    /// The options' workspace, held to `--media-root` when roots are given.
    func workspace() throws -> Workspace {
        let workspace = try project.fetching.workspace()
        guard !mediaRoots.isEmpty else { return workspace }
        do {
            return Workspace(remote: workspace.remote, mediaRoots: try MediaRoots(mediaRoots))
        } catch {
            throw UsageError("--media-root \(error.folder): not a folder")
        }
    }
}

/// `--jobs`, `--threads`, `--preset` and where parts go: how a project's segments are rendered.
struct RenderingOptions: ParsableArguments {
    @Option(help: "Segments rendered at the same time: one per core, at most 8 (the output does not depend on it).")
    var jobs: Int = RenderingOptions.defaultJobs

    static let defaultJobs = AvailableCores.segmentJobs

    @OptionGroup var encoding: EncodingOptions

    @Option(help: ArgumentHelp("Keep rendered segments in this folder (the runner contract: reel plan / render --segment / join).",
                               valueName: "folder"))
    var parts: String?

    @Flag(help: "Do not use or fill the cache of rendered segments.")
    var noCache = false

    @OptionGroup var warnings: StrictOption

    @Flag(help: "Write the audio alone, into any container (an audio-only one, .m4a .mp3 .wav .flac .ogg .opus, is so anyway).")
    var audioOnly = false

    func validate() throws {
        guard jobs >= 1 else { throw ValidationError("--jobs must be at least 1, not \(jobs)") }
        if parts != nil, noCache { throw ValidationError("--parts and --no-cache: choose one") }
    }

    /// The folder parts are kept in: `--parts`, else the cache (none with `--no-cache`).
    var partsFolder: String? {
        if let parts { return parts }
        if noCache { return nil }
        return SegmentCache.folder(environment: ProcessInfo.processInfo.environment)
    }

    /// The render the options ask for, the project file and the vars file each read once.
    func request(project: ProjectOptions, output: String?, range: String?) throws -> RenderRequest {
        RenderRequest(projectPath: project.path, document: try DocumentLoader.load(path: project.path), vars: try project.vars.values(),
                      varsFile: project.vars.file, varsInput: "--vars", output: output, range: range, audioOnly: audioOnly, preset: encoding.preset,
                      decoderThreads: encoding.threads, jobs: jobs, partsFolder: partsFolder)
    }
}

extension ExportSession.Report {
    /// What `reel render` says once a render is done, in its progress `style`: the summary and
    /// the loudness on standard error (`auto`), both as JSON lines on standard output (`json`).
    func announce(output: String, style: ProgressStyle) {
        if style == .auto {
            FileHandle.standardError.write(Data((summary(output: output) + "\n").utf8))
            if let loudness { FileHandle.standardError.write(Data((loudness.summary + "\n").utf8)) }
        } else if style == .json {
            print(json)
            if let loudness { print(loudness.json) }
        }
    }
}
