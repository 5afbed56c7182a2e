import CompositionGraph
import Foundation
import MediaFormat
import MediaIO

/// The pipeline's sink over MediaIO's `MediaWriter`. Output frames are allocated in the
/// writer's own frame memory (`VideoFramePool`), so composited frames and passed-through
/// source frames alike go to the encoder without a copy.
final class MediaIOSink: MediaSink {
    private let writer: MediaWriter
    private let pool: VideoFramePool
    private let path: String

    /// Opens the writer, which checks the codecs, the container and the settings before any
    /// frame is rendered. Throws `RenderError`.
    init(graph: CompositionGraph, path: String, threads: Int) throws {
        self.path = path
        let settings = try Self.settings(graph, path: path, threads: threads)
        do {
            writer = try MediaWriter(path: path, settings: settings)
            pool = try VideoFramePool(width: graph.videoComposition.renderSize.width, height: graph.videoComposition.renderSize.height,
                                      pixelFormat: .yuv420p, colorSpace: .bt709)
        } catch let error as MediaError where error.kind == .writingFailed {
            throw RenderError.unwritable(path: path, reason: error.message)
        } catch {
            throw RenderError.invalidSettings("output \(path): \(error)")
        }
    }

    /// The writer settings the graph's output asks for: its container (else the one the
    /// file's extension names), the video at the render size and frame rate, tagged BT.709.
    static func settings(_ graph: CompositionGraph, path: String, threads: Int) throws(RenderError) -> WriterSettings {
        let out = graph.output
        let ext = URL(fileURLWithPath: path).pathExtension
        guard let container = out.container ?? Container(fileExtension: ext) else {
            throw .invalidSettings("output \(path): cannot tell the container from \(ext.isEmpty ? "a name without an extension" : "'.\(ext)'"); "
                                   + "end the name with .\(Container.fileExtensions.joined(separator: ", .")), or set output.container")
        }
        guard let pixelFormat = PixelFormat(name: out.video.pixelFormat) else {
            throw .invalidSettings("output \(path): unknown pixel format '\(out.video.pixelFormat)' (for example yuv420p)")
        }
        let quality: WriterSettings.Quality = out.video.bitrate.map { .bitrate($0) } ?? .crf(out.video.crf ?? 23)
        let size = graph.videoComposition.renderSize
        let video = WriterSettings.Video(codec: out.video.codec, width: size.width, height: size.height,
                                         frameRate: graph.videoComposition.frameDuration.value.reciprocal, quality: quality,
                                         preset: out.video.preset, pixelFormat: pixelFormat, gopSize: out.video.gopSize,
                                         colorSpace: .bt709, threads: threads)
        let audio = graph.hasAudio ? WriterSettings.Audio(codec: out.audio.codec, sampleRate: out.audio.sampleRate, channels: out.audio.channels,
                                                          bitrate: out.audio.bitrate) : nil
        return WriterSettings(container: container, video: video, audio: audio, faststart: out.faststart, metadata: out.metadata)
    }

    func makeFrame() throws -> YUVFrame { YUVFrame(lending: try pool.makeFrame()) }

    func writeVideo(_ frame: YUVFrame, index: Int64) throws {
        var video = frame.planeOwner as? VideoFrame
        if video == nil {
            // Not in MediaIO memory (a frame made elsewhere): copy it once.
            let copy = try makeFrame()
            copy.copy(from: frame)
            video = copy.planeOwner as? VideoFrame
        }
        try output { try writer.append(video: video!, at: index) }
    }

    func writeAudio(_ samples: UnsafePointer<Float>, count: Int) throws {
        try output { try writer.append(audio: UnsafeBufferPointer(start: samples, count: count * writer.settings.audio!.channels)) }
    }

    func finish() throws { try output { try writer.finish() } }

    /// Drops the unfinished file (the writer removes its temporary file).
    func discard() { writer.cancel() }

    private func output(_ body: () throws -> Void) throws {
        do { try body() } catch { throw RenderError.output(path: path, reason: "\(error)") }
    }
}

extension YUVFrame {
    /// A frame showing the planes of a MediaIO `yuv420p` frame, which it keeps alive.
    convenience init(lending frame: VideoFrame) {
        precondition(frame.pixelFormat == .yuv420p, "only yuv420p frames can be lent, not \(frame.pixelFormat)")
        let y = frame.plane(0), u = frame.plane(1), v = frame.plane(2)
        precondition(u.bytesPerRow == v.bytesPerRow, "yuv420p chroma planes with different strides")
        self.init(width: frame.width, height: frame.height, y: y.baseAddress.assumingMemoryBound(to: UInt8.self),
                  u: u.baseAddress.assumingMemoryBound(to: UInt8.self), v: v.baseAddress.assumingMemoryBound(to: UInt8.self),
                  yStride: y.bytesPerRow, chromaStride: u.bytesPerRow, owner: frame)
    }
}
