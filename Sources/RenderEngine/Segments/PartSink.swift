import CompositionGraph
import Foundation
import MediaFormat
import MediaIO

/// The pipeline's sink for one segment: frames encoded by a `VideoPacketEncoder` of their own
/// into a part file (no audio: the join mixes the whole range's). Output frames are allocated
/// in MediaIO frame memory, so composited and passed-through frames reach the encoder without
/// a copy.
final class PartSink: MediaSink {
    private let encoder: VideoPacketEncoder
    private let part: PartFile.Writer
    private let pool: VideoFramePool
    private let path: String

    init(graph: CompositionGraph, segment: SegmentPlan.Segment, path: String) throws {
        self.path = path
        // The packets are the same for every container Reel writes (all take the codec's
        // global header), so a part made before the output is named fits any of them; the join
        // checks the global header all the same.
        var graph = graph
        if graph.output.container == nil { graph.output.container = .mp4 }
        let written = try WriterSettings(graph, path: path, threads: SegmentPlan.encoderThreads)
        let settings = PictureOutput.partSettings(written) ?? written
        do {
            encoder = try VideoPacketEncoder(settings: settings, path: path)
            pool = try VideoFramePool(width: graph.videoComposition.renderSize.width, height: graph.videoComposition.renderSize.height,
                                      pixelFormat: graph.frameFormat, colorSpace: .bt709)
        } catch {
            throw RenderError.invalidSettings("output \(path): \(error)")
        }
        do {
            part = try PartFile.Writer(path: path, header: PartFile.Header(key: segment.key, firstFrame: segment.firstFrame,
                                                                           frameCount: segment.frameCount, extradata: encoder.extradata))
        } catch {
            throw RenderError.unwritable(path: path, reason: "\(error)")
        }
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
        try output { for packet in try encoder.encode(video!) { try part.append(packet) } }
    }

    func writeAudio(_ samples: UnsafePointer<Float>, count: Int) throws {
        preconditionFailure("a segment's part holds video only")
    }

    func finish() throws {
        try output {
            for packet in try encoder.finish() { try part.append(packet) }
            try part.finish()
        }
    }

    func discard() { part.discard() }

    private func output(_ body: () throws -> Void) throws {
        do { try body() } catch { throw RenderError.output(path: path, reason: "\(error)") }
    }
}

extension WriterSettings {
    /// What the graph's output asks the writer for: its container (else the one the file's
    /// extension names), the video (if any) at the render size and frame rate tagged BT.709, the
    /// audio.
    init(_ graph: CompositionGraph, path: String, threads: Int) throws(RenderError) {
        let out = graph.output
        let ext = URL(fileURLWithPath: path).pathExtension
        guard let container = out.container ?? Container(fileExtension: ext) else {
            throw .invalidSettings("output \(path): cannot tell the container from \(ext.isEmpty ? "a name without an extension" : "'.\(ext)'"); "
                                   + "end the name with .\(Container.fileExtensions.joined(separator: ", .")), or set output.container")
        }
        let video = try out.video.map { v throws(RenderError) in
            guard let pixelFormat = PixelFormat(name: v.pixelFormat) else {
                throw .invalidSettings("output \(path): unknown pixel format '\(v.pixelFormat)' (for example yuv420p)")
            }
            let size = graph.videoComposition.renderSize
            // JPEG files are full-range BT.601 (JFIF).
            return WriterSettings.Video(codec: v.codec, width: size.width, height: size.height,
                                        frameRate: graph.videoComposition.frameRate,
                                        quality: v.bitrate.map { .bitrate($0) } ?? .crf(v.crf ?? 23), preset: v.preset,
                                        pixelFormat: pixelFormat, gopSize: v.gopSize,
                                        colorSpace: v.codec == .jpeg ? ColorSpace(.bt601, .full) : .bt709, threads: threads)
        }
        let audio = graph.hasAudio && !container.holdsPicturesOnly ? WriterSettings.Audio(codec: out.audio.codec, sampleRate: out.audio.sampleRate, channels: out.audio.channels,
                                                          bitrate: out.audio.bitrate) : nil
        self.init(container: container, video: video, audio: audio, faststart: out.faststart, metadata: out.metadata)
    }
}

extension YUVFrame {
    /// A frame showing the planes of a MediaIO `yuv420p` or `yuva420p` frame, which it keeps alive.
    convenience init(lending frame: VideoFrame) {
        let alpha = frame.pixelFormat == .yuva420p
        precondition(frame.pixelFormat == .yuv420p || alpha, "only yuv420p and yuva420p frames can be lent, not \(frame.pixelFormat)")
        let y = frame.plane(0), u = frame.plane(1), v = frame.plane(2), a = alpha ? frame.plane(3) : nil
        precondition(u.bytesPerRow == v.bytesPerRow, "yuv420p chroma planes with different strides")
        precondition(a == nil || a?.bytesPerRow == y.bytesPerRow, "yuva420p luma and alpha planes with different strides")
        self.init(width: frame.width, height: frame.height, y: y.baseAddress.assumingMemoryBound(to: UInt8.self),
                  u: u.baseAddress.assumingMemoryBound(to: UInt8.self), v: v.baseAddress.assumingMemoryBound(to: UInt8.self),
                  a: a?.baseAddress.assumingMemoryBound(to: UInt8.self), yStride: y.bytesPerRow, chromaStride: u.bytesPerRow, owner: frame)
    }
}
