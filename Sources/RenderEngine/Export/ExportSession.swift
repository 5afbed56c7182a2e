import CompositionGraph
import Foundation
import MediaTime

/// What an export is asked for, beyond the graph.
public struct ExportOptions: Sendable {
    /// Where to write; the container is the graph's `output.container`, else the one the
    /// file's extension names.
    public var outputPath: String
    /// The part of the timeline to render (AVAssetExportSession.timeRange); nil: all of it.
    public var range: TimeRange?
    /// Threads per encoder and per video decoder (at least 1). Fixed, never the machine's
    /// core count, so the same settings give the same bytes on any machine.
    public var threads: Int
    public var preset: ExportPreset?

    public init(outputPath: String, range: TimeRange? = nil, threads: Int = ExportOptions.defaultThreads, preset: ExportPreset? = nil) {
        precondition(threads >= 1, "threads must be at least 1, not \(threads)")
        self.outputPath = outputPath
        self.range = range
        self.threads = threads
        self.preset = preset
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
    public let range: TimeRange
    private let lock = NSLock()
    private var pipeline: RenderPipeline?
    private var cancelled = false

    /// Applies the preset and resolves the range (nil: the whole timeline, which must lie
    /// inside it). Throws `RenderError.invalidSettings` for an empty range.
    public init(graph: CompositionGraph, options: ExportOptions) throws(RenderError) {
        self.graph = options.preset.map { $0.apply(to: graph) } ?? graph
        self.options = options
        range = options.range ?? TimeRange(start: .zero, duration: self.graph.duration)
        guard !range.isEmpty, !range.start.isNegative, range.end <= self.graph.duration else {
            throw .invalidSettings("nothing to render: the range \(range) is empty or outside the timeline [0, \(self.graph.duration))")
        }
    }

    public var outputPath: String { options.outputPath }

    /// Frames the output will have.
    public var frameCount: Int64 { range.duration.frameCount(frameDuration: graph.videoComposition.frameDuration) }

    /// Renders the file, calling `progress` with the number of frames written after each
    /// frame (on the encoding thread). Throws `RenderError`.
    public func run(progress: (Int64) -> Void = { _ in }) throws {
        try MediaValidation.check(graph)
        let sink = try MediaIOSink(graph: graph, path: outputPath, threads: options.threads)
        let overlays = try OverlayBridge.make(graph: graph)
        let config = RenderPipeline.Configuration(graph: graph, range: range)
        let pipeline = RenderPipeline(config, access: .mediaIO(channels: graph.output.audio.channels, decoderThreads: options.threads),
                                      sink: sink, overlays: overlays)
        let startCancelled: Bool = lock.withLock {
            self.pipeline = pipeline
            return cancelled
        }
        if startCancelled { pipeline.cancel() }
        do {
            try pipeline.run(progress: progress)
        } catch {
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
