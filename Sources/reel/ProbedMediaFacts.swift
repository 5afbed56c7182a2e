import CompositionGraph
import Foundation
import MediaIO
import MediaTime
import ProjectCompiler

/// Media facts for the compiler, from FFmpeg's probe of each file.
struct ProbedMediaFacts: MediaFactsProvider {
    func facts(for reference: MediaReference) throws(MediaFactsError) -> MediaFacts {
        if reference.kind == .svg {
            // Drawn by librsvg, not decoded by FFmpeg: its size is known when it is drawn.
            guard FileManager.default.fileExists(atPath: reference.path) else { throw .missing(path: reference.path) }
            return MediaFacts(duration: nil, videoSize: nil, hasVideo: true, hasAudio: false)
        }
        let info: MediaInfo
        do {
            info = try MediaProbe.probe(path: reference.path)
        } catch let error as MediaError where error.kind == .fileNotFound {
            throw .missing(path: reference.path)
        } catch {
            throw .unreadable(path: reference.path, reason: (error as? MediaError)?.message ?? "\(error)")
        }
        if let problem = info.undecodableProblem { throw .unreadable(path: reference.path, reason: problem) }
        let video = info.video?.video
        return MediaFacts(duration: info.isStillImage ? nil : info.duration,
                          videoSize: video.map { PixelSize(width: $0.displayWidth, height: $0.displayHeight) },
                          hasVideo: video != nil, hasAudio: info.audio != nil)
    }
}
