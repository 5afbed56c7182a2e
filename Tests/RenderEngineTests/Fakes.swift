import CompositionGraph
import Foundation
import LookKernels
import MediaTime
@testable import RenderEngine
import TestSupport

/// A video "file" at 25 fps whose frame k is a flat grey of luma 16 + k (mod 200).
final class CountingVideoSource: VideoFrameSource {
    var requests = 0
    func index(_ t: MediaTime) -> Int { Int((t.value * Rational(25)).floor) }
    func yuvFrame(at t: MediaTime, width: Int, height: Int) throws -> YUVFrame {
        requests += 1
        return solidFrame(width: width, height: height, YUVColor(y: UInt8(16 + index(t) % 200), cb: 128, cr: 128))
    }
    func rgbaFrame(at t: MediaTime, width: Int, height: Int) throws -> PremultipliedImage {
        requests += 1
        let image = PremultipliedImage(width: width, height: height)
        let v = UInt8(index(t) % 200)
        image.fill((v, v, v, 255))
        return image
    }
}

/// Keeps what the pipeline writes: each frame's luma at its centre and a hash, and audio.
final class RecordingSink: MediaSink {
    var frames: [(index: Int64, centre: UInt8, hash: UInt64)] = []
    var audio: [Float] = []
    var finished = false
    var delayPerFrame: TimeInterval = 0
    let size: PixelSize

    init(size: PixelSize = PixelSize(width: 64, height: 36)) { self.size = size }

    func makeFrame() throws -> YUVFrame { YUVFrame(width: size.width, height: size.height) }

    func writeVideo(_ frame: YUVFrame, index: Int64) throws {
        if delayPerFrame > 0 { Thread.sleep(forTimeInterval: delayPerFrame) }
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        for b in frame.packedBytes() { h = (h ^ UInt64(b)) &* 0x100_0000_01b3 }
        frames.append((index, frame.sample(plane: 0, x: frame.width / 2, y: frame.height / 2), h))
    }

    func writeAudio(_ samples: UnsafePointer<Float>, count: Int) throws {
        audio.append(contentsOf: UnsafeBufferPointer(start: samples, count: count * 2))
    }

    func finish() throws { finished = true }
    func discard() {}
}

/// A two-clip graph with a 1 s crossfade: clip A (track 1) 0–3 s, clip B (track 2) 2–5 s,
/// each with its audio on tracks 11 and 12, at 64x36, 30 fps.
func crossfadeGraph(size: PixelSize = PixelSize(width: 64, height: 36)) -> CompositionGraph {
    let a = MediaReference.fake("a", path: "/a.mp4", kind: .video, size: size), b = MediaReference.fake("b", path: "/b.mp4", kind: .video, size: size)
    let segA = Segment(target: TimeRange(start: .zero, duration: seconds(3)), content: .media(a, sourceRange: TimeRange(start: seconds(1), duration: seconds(3))))
    let segB = Segment(target: TimeRange(start: seconds(2), duration: seconds(3)), content: .media(b, sourceRange: TimeRange(start: .zero, duration: seconds(3))))
    let tracks = [CompositionTrack(id: 1, kind: .video, name: "video 1 A", segments: [segA]),
                  CompositionTrack(id: 2, kind: .video, name: "video 1 B", segments: [segB]),
                  CompositionTrack(id: 11, kind: .audio, name: "audio of video 1 A", segments: [segA]),
                  CompositionTrack(id: 12, kind: .audio, name: "audio of video 1 B", segments: [segB])]
    let overlap = TimeRange(start: seconds(2), duration: seconds(1))
    let instructions = [
        VideoInstruction(timeRange: TimeRange(start: .zero, duration: seconds(2)), background: .black, layers: [layer(1, size: size)]),
        VideoInstruction(timeRange: overlap, background: .black,
                         layers: [layer(1, size: size), layer(2, size: size, opacity: .ramp(from: 0, to: 1, over: overlap))]),
        VideoInstruction(timeRange: TimeRange(start: seconds(3), duration: seconds(2)), background: .black, layers: [layer(2, size: size)]),
    ]
    let vc = VideoComposition(renderSize: size, frameDuration: seconds(1, 30), background: .black, instructions: instructions)
    let mix = AudioMix(tracks: [AudioMixTrack(trackID: 11, volume: .ramp(from: 1, to: 0, over: overlap)),
                                AudioMixTrack(trackID: 12, volume: .ramp(from: 0, to: 1, over: overlap))])
    return CompositionGraph(composition: Composition(duration: seconds(5), tracks: tracks), videoComposition: vc,
                            audioMix: mix, overlays: [], fonts: [], output: .test)
}
