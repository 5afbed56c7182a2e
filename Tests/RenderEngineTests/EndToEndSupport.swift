import CompositionGraph
import Foundation
import MediaTime
import TestSupport
@testable import RenderEngine

/// Graphs written by hand for end-to-end renders (the compiler is not a dependency of this
/// target), rendering through `ExportSession` into the test media folder, and decoding the
/// result with the ffmpeg CLI.
enum EndToEnd {
    /// Lossless H.264 (x264 qp 0) + FLAC in Matroska, or H.264 + AAC in MP4.
    static func output(size: PixelSize, lossless: Bool = true) -> OutputSettings {
        var settings = OutputSettings.test
        settings.video?.preset = "ultrafast"
        settings.faststart = !lossless
        settings.metadata = ["title": "reel test"]
        if lossless {
            settings.container = .mkv
            settings.video?.crf = 0
            settings.audio = .init(codec: .flac, bitrate: nil, sampleRate: 48000, channels: 2)
        }
        return settings
    }

    /// A clip on the timeline: `source` of `media` played at `at` (speed = source / target).
    struct Clip {
        var media: MediaReference
        var source: TimeRange
        var target: TimeRange
        var fit: Fit = .contain
    }

    /// Clips alternating between video tracks 1 and 2 (their audio on 11 and 12), each
    /// overlap a crossfade; one instruction per stretch of the timeline.
    static func sequence(_ clips: [Clip], size: PixelSize, fps: Int64 = 30, lossless: Bool = true,
                         transition: (TimeRange, PixelSize) -> (out: LayerInstructionChange, in: LayerInstructionChange) = crossfade)
        -> CompositionGraph {
        var video: [Int: [Segment]] = [1: [], 2: []], audio: [Int: [Segment]] = [11: [], 12: []]
        for (i, clip) in clips.enumerated() {
            let segment = Segment(target: clip.target, content: .media(clip.media, sourceRange: clip.source))
            video[1 + i % 2]!.append(segment)
            audio[11 + i % 2]!.append(segment)
        }
        var instructions: [VideoInstruction] = []
        var volume: [Int: [Keyframe]] = [11: [], 12: []]
        var t = MediaTime.zero
        for (i, clip) in clips.enumerated() {
            let base = layer(1 + i % 2, size: size, fit: clip.fit)
            let next = i + 1 < clips.count ? clips[i + 1] : nil
            let soloEnd = next.map { min(clip.target.end, $0.target.start) } ?? clip.target.end
            if t < soloEnd { instructions.append(VideoInstruction(timeRange: TimeRange(start: t, end: soloEnd), background: .black, layers: [base])) }
            t = max(t, soloEnd)
            if let next, next.target.start < clip.target.end {
                let overlap = TimeRange(start: next.target.start, end: clip.target.end)
                let (outChange, inChange) = transition(overlap, size)
                let incoming = layer(1 + (i + 1) % 2, size: size, fit: next.fit)
                instructions.append(VideoInstruction(timeRange: overlap, background: .black, layers: [outChange(base), inChange(incoming)]))
                t = overlap.end
            }
        }
        // Each clip's audio at full volume, faded out and in over the overlaps.
        for (i, clip) in clips.enumerated() {
            let fadeIn = i > 0 && clips[i - 1].target.end > clip.target.start
            let fadeOut = i + 1 < clips.count && clips[i + 1].target.start < clip.target.end
            let start = fadeIn ? [Keyframe(time: clip.target.start, value: 0), Keyframe(time: clips[i - 1].target.end, value: 1)]
                : [Keyframe(time: clip.target.start, value: 1)]
            let end = fadeOut ? [Keyframe(time: clips[i + 1].target.start, value: 1), Keyframe(time: clip.target.end, value: 0)]
                : [Keyframe(time: clip.target.end, value: 1)]
            volume[11 + i % 2]!.append(contentsOf: start + end)
        }
        let duration = clips.map(\.target.end).max()!
        let tracks = [1, 2].map { CompositionTrack(id: $0, kind: .video, name: "video \($0)", segments: video[$0]!) }
            + [11, 12].map { CompositionTrack(id: $0, kind: .audio, name: "audio \($0)", segments: audio[$0]!) }
        let mix = AudioMix(tracks: [11, 12].map { id in
            AudioMixTrack(trackID: id, volume: volume[id]!.isEmpty ? .constant(1) : Animation(keyframes: volume[id]!))
        })
        let vc = VideoComposition(renderSize: size, frameDuration: MediaTime(1, fps), background: .black, instructions: instructions)
        return CompositionGraph(composition: Composition(duration: duration, tracks: tracks), videoComposition: vc, audioMix: mix,
                                overlays: [], fonts: [], output: output(size: size, lossless: lossless))
    }

    typealias LayerInstructionChange = (LayerInstruction) -> LayerInstruction

    static func crossfade(_ overlap: TimeRange, _ size: PixelSize) -> (out: LayerInstructionChange, in: LayerInstructionChange) {
        ({ $0 }, { var l = $0; l.opacity = .ramp(from: 0, to: 1, over: overlap); return l })
    }

    /// Renders `graph` to `name` in the test media folder (`jobs` segments at once, parts in a
    /// temporary folder) and returns its path.
    static func render(_ graph: CompositionGraph, to name: String, range: TimeRange? = nil, jobs: Int = 1) throws -> String {
        let path = MediaFactory.path(name)
        try ExportSession(graph: graph, options: ExportOptions(outputPath: path, range: range, jobs: jobs)).run()
        return path
    }

    /// Every decoded frame of `path` as packed yuv420p bytes.
    static func decodedFrames(_ path: String, width: Int, height: Int) throws -> [[UInt8]] {
        let raw = MediaFactory.path(URL(fileURLWithPath: path).lastPathComponent + ".yuv")
        try MediaFactory.ffmpeg(["-i", path, "-f", "rawvideo", "-pix_fmt", "yuv420p", raw])
        let data = try Data(contentsOf: URL(fileURLWithPath: raw))
        try? FileManager.default.removeItem(atPath: raw)
        let frameSize = width * height * 3 / 2
        return stride(from: 0, to: data.count, by: frameSize).map { [UInt8](data[$0..<min($0 + frameSize, data.count)]) }
    }

    /// The decoded audio of `path`, first channel, as 48 kHz floats.
    static func decodedAudio(_ path: String) throws -> [Float] {
        let raw = MediaFactory.path(URL(fileURLWithPath: path).lastPathComponent + ".f32")
        try MediaFactory.ffmpeg(["-i", path, "-f", "f32le", "-ac", "1", "-ar", "48000", raw])
        let data = try Data(contentsOf: URL(fileURLWithPath: raw))
        try? FileManager.default.removeItem(atPath: raw)
        return data.withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }
    }
}

/// A sample of a packed yuv420p frame.
func sample(_ frame: [UInt8], width: Int, height: Int, plane: Int, x: Int, y: Int) -> UInt8 {
    switch plane {
    case 0: return frame[y * width + x]
    case 1: return frame[width * height + y * (width / 2) + x]
    default: return frame[width * height + (width / 2) * (height / 2) + y * (width / 2) + x]
    }
}
