import CompositionGraph
import MediaTime
import TestSupport

// Graphs written by hand for the page's tests.

func layer(_ trackID: Int) -> LayerInstruction {
    LayerInstruction(trackID: trackID, fit: .contain, transform: .identity(for: PixelSize(width: 1920, height: 1080)),
                     opacity: .constant(1), crop: .none)
}

/// A graph of `tracks` lasting `duration`, with `instructions` (default: one plain instruction
/// over the whole timeline), a volume per audio track id, and overlays.
func graph(duration: MediaTime, tracks: [CompositionTrack], instructions: [VideoInstruction]? = nil,
           volumes: [(Int, Animation)] = [], overlays: [OverlayLayer] = [], metadata: [String: String] = [:]) -> CompositionGraph {
    var output = OutputSettings.test
    output.faststart = true
    output.metadata = metadata
    let firstVideo = tracks.first { $0.kind == .video }.map { [layer($0.id)] } ?? []
    return CompositionGraph(
        composition: Composition(duration: duration, tracks: tracks),
        videoComposition: VideoComposition(
            renderSize: PixelSize(width: 1920, height: 1080), frameDuration: seconds(1, 30), background: .black,
            instructions: instructions ?? [VideoInstruction(timeRange: range(.zero, duration), background: .black, layers: firstVideo)]),
        audioMix: AudioMix(tracks: volumes.map { AudioMixTrack(trackID: $0.0, volume: $0.1) }),
        overlays: overlays, fonts: [], output: output)
}

func video(_ name: String) -> MediaReference { MediaReference.fake(name, path: "/media/\(name).mp4", kind: .video) }

func clip(_ reference: MediaReference, at target: TimeRange, from sourceStart: MediaTime) -> Segment {
    Segment(target: target, content: .media(reference, sourceRange: TimeRange(start: sourceStart, duration: target.duration)))
}

/// The promo's shape: A 0–10 s on track 1, B 9–20 s on track 2, a 1 s crossfade between them.
func crossfadeGraph() -> CompositionGraph {
    let a = clip(video("intro"), at: range(.zero, seconds(10)), from: seconds(1))
    let b = clip(video("broll"), at: range(seconds(9), seconds(20)), from: .zero)
    let tracks = [CompositionTrack(id: 1, kind: .video, name: "video 1 A", segments: [a]),
                  CompositionTrack(id: 2, kind: .video, name: "video 1 B", segments: [Segment(target: range(.zero, seconds(9)), content: nil), b])]
    let crossfade = VideoInstruction.Transition(kind: "crossfade", fromTrackID: 1, toTrackID: 2)
    let instructions = [
        VideoInstruction(timeRange: range(.zero, seconds(9)), background: .black, layers: [layer(1)]),
        VideoInstruction(timeRange: range(seconds(9), seconds(10)), background: .black, layers: [layer(1), layer(2)], transitions: [crossfade]),
        VideoInstruction(timeRange: range(seconds(10), seconds(20)), background: .black, layers: [layer(2)]),
    ]
    return graph(duration: seconds(20), tracks: tracks, instructions: instructions)
}

/// `count` video clips one after another over `duration`, with their audio, an overlay
/// every tenth clip and a watermark: a long timeline.
func longGraph(clips count: Int, duration: MediaTime) -> CompositionGraph {
    let length = duration / Rational(Int64(count))
    var video: [Segment] = [], overlays: [OverlayLayer] = []
    for i in 0..<count {
        let target = TimeRange(start: length * Rational(Int64(i)), duration: length)
        video.append(clip(MediaReference.fake("shot \(i + 1)", path: "/media/shot\(i % 7).mp4", kind: .video), at: target, from: seconds(Int64(i % 5))))
        if i % 10 == 0 {
            overlays.append(OverlayLayer(content: .text("Caption \(i + 1)", TextStyle(font: "DejaVu Sans", size: 48)), timeRange: target,
                                         positionX: .constant(960), positionY: .constant(900)))
        }
    }
    overlays.append(OverlayLayer(content: .image(MediaReference.fake("logo", path: "/media/logo.png", kind: .image)),
                                 timeRange: range(.zero, duration), positionX: .constant(1800), positionY: .constant(60)))
    let tracks = [CompositionTrack(id: 1, kind: .video, name: "video 1", segments: video),
                  CompositionTrack(id: 2, kind: .audio, name: "audio of video 1", segments: video)]
    let fade = Animation(keyframes: [Keyframe(time: .zero, value: 0), Keyframe(time: seconds(2), value: 1),
                                     Keyframe(time: duration - seconds(3), value: 1, ease: .easeOut), Keyframe(time: duration, value: 0)])
    return graph(duration: duration, tracks: tracks, volumes: [(2, fade)], overlays: overlays)
}

/// How many times `needle` occurs in `text`.
func occurrences(of needle: String, in text: String) -> Int { text.components(separatedBy: needle).count - 1 }
