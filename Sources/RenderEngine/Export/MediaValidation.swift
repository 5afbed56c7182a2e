import CompositionGraph
import Foundation
import MediaIO

/// Everything checked before the first frame, so a render never fails late for something
/// knowable at the start: every file the graph reads exists and is probed, video tracks
/// get pictures and audio tracks sound, and the output's numbers make sense.
enum MediaValidation {
    /// The facts of every picture source, by path; throws the first problem found.
    static func check(_ graph: CompositionGraph) throws -> [String: SourceFacts] {
        let vc = graph.videoComposition, audio = graph.output.audio
        let size = vc.renderSize
        guard size.width > 0, size.height > 0, size.width % 2 == 0, size.height % 2 == 0 else {
            throw RenderError.invalid("output size \(size) cannot be encoded as 4:2:0 video: use even, positive width and height")
        }
        guard vc.frameDuration.isPositive else { throw RenderError.invalid("output frame duration \(vc.frameDuration) must be positive") }
        guard (8000...192_000).contains(audio.sampleRate), (1...8).contains(audio.channels) else {
            throw RenderError.invalid("audio of \(audio.sampleRate) Hz, \(audio.channels) channels: use 8000–192000 Hz and 1–8 channels")
        }
        var facts: [String: SourceFacts] = [:]
        var probed: [String: MediaInfo] = [:]
        func info(_ ref: MediaReference) throws -> MediaInfo {
            if let known = probed[ref.path] { return known }
            guard FileManager.default.fileExists(atPath: ref.path) else { throw RenderError.missingFile(ref.path, name: ref.name) }
            do {
                let i = try MediaProbe.probe(path: ref.path)
                probed[ref.path] = i
                return i
            } catch {
                throw RenderError.invalid("media '\(ref.name)': \(error)")
            }
        }
        for track in graph.composition.tracks {
            for segment in track.segments {
                let ref: MediaReference
                switch segment.content {
                case .media(let r, _)?, .still(let r)?: ref = r
                default: continue
                }
                let i = try info(ref)
                switch track.kind {
                case .video:
                    guard let video = i.video?.video else {
                        throw RenderError.invalid("media '\(ref.name)' (\(ref.path)) is shown on \(track.name) but has no picture")
                    }
                    facts[ref.path] = SourceFacts(size: PixelSize(width: video.displayWidth, height: video.displayHeight),
                                                  hasAlpha: video.hasAlpha)
                case .audio:
                    guard i.audio != nil else {
                        throw RenderError.invalid("media '\(ref.name)' (\(ref.path)) is heard on \(track.name) but has no audio stream; "
                                                  + "mute the clip or pick a file with sound")
                    }
                }
            }
        }
        return facts
    }
}
