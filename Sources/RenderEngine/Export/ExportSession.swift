import CompositionGraph
import Foundation
import MediaTime

/// What `reel render` asks for, beyond the graph.
public struct ExportOptions: Sendable {
    /// Where to write; nil: the project's `output.path`.
    public var outputPath: String?
    /// The part of the timeline to render (AVAssetExportSession.timeRange); nil: all of it.
    public var range: TimeRange?
    /// Threads per encoder and per video decoder. Fixed (never the machine's core count) so
    /// the same settings give the same bytes on any machine.
    public var threads: Int
    public var preset: ExportPreset?
    public var progress: ProgressStyle

    public init(outputPath: String? = nil, range: TimeRange? = nil, threads: Int = ExportOptions.defaultThreads,
                preset: ExportPreset? = nil, progress: ProgressStyle = .auto) {
        self.outputPath = outputPath
        self.range = range
        self.threads = threads
        self.preset = preset
        self.progress = progress
    }

    public static let defaultThreads = 2
}

/// Reel's AVAssetExportSession: checks everything, then pulls the graph through decoding,
/// compositing, overlays, mixing and encoding into the output file.
///
/// The file appears only when complete: it is written to a temporary file next to it and
/// renamed at the end; on an error or a cancel the temporary file is removed and an existing
/// file at the output path is left as it was.
public final class ExportSession: @unchecked Sendable {
    public let graph: CompositionGraph
    public let options: ExportOptions
    public let outputPath: String
    public let range: TimeRange
    private let lock = NSLock()
    private var pipeline: RenderPipeline?
    private var cancelled = false

    /// Applies the preset and resolves the output path and range; throws `RenderError`.
    public init(graph: CompositionGraph, options: ExportOptions) throws {
        var g = options.preset.map { $0.apply(to: graph) } ?? graph
        guard let path = options.outputPath ?? g.output.path else {
            throw RenderError.invalid("no output file: pass -o FILE or set output.path in the project")
        }
        // A file named on the command line gets the container its extension names.
        if options.outputPath != nil, let container = OutputSettings.Container(rawValue: URL(fileURLWithPath: path).pathExtension.lowercased()) {
            g.output.container = container
        }
        self.graph = g
        self.options = options
        outputPath = path
        range = options.range ?? TimeRange(start: .zero, duration: g.duration)
        guard !range.isEmpty else { throw RenderError.invalid("nothing to render: the timeline range \(range) is empty") }
        guard options.threads >= 1 else { throw RenderError.invalid("--threads must be 1 or more, not \(options.threads)") }
    }

    /// Frames the output will have.
    public var frameCount: Int64 { range.duration.frameCount(frameDuration: graph.videoComposition.frameDuration) }

    /// Renders the file. With `handlingSignals`, SIGINT and SIGTERM cancel the render.
    public func run(handlingSignals: Bool = false) throws {
        let signals = handlingSignals ? SignalCancellation { [weak self] in self?.cancel() } : nil
        defer { withExtendedLifetime(signals) {} }
        let sources = try MediaValidation.check(graph)
        let sink = try MediaIOSink(graph: graph, path: outputPath, threads: options.threads)
        let overlays = try OverlayBridge.make(graph: graph)
        let config = RenderPipeline.Configuration(graph: graph, range: range, sources: sources)
        let pipeline = RenderPipeline(config, access: .mediaIO(channels: graph.output.audio.channels, decoderThreads: options.threads),
                                      sink: sink, overlays: overlays)
        let startCancelled: Bool = lock.withLock {
            self.pipeline = pipeline
            return cancelled
        }
        if startCancelled { pipeline.cancel() }
        let progress = ProgressReporter(style: options.progress, totalFrames: frameCount)
        do {
            try pipeline.run { progress.update(framesDone: $0) }
            progress.finish()
        } catch {
            progress.finish()
            sink.discard()
            throw error
        }
    }

    /// Stops a running render within a frame or two (safe from any thread or a signal handler's queue).
    public func cancel() {
        let running: RenderPipeline? = lock.withLock {
            cancelled = true
            return pipeline
        }
        running?.cancel()
    }
}
