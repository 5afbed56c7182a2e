import CompositionGraph

/// Everything checked before the first frame, so a render never fails late for something
/// knowable at the start: the output's numbers make sense, every file the graph reads is
/// still the file its facts were read from, video tracks show pictures and audio tracks play
/// sound. The facts themselves come with the graph; nothing is probed again.
enum MediaValidation {
    /// Throws the first problem found as a `RenderError`.
    static func check(_ graph: CompositionGraph) throws(RenderError) {
        let vc = graph.videoComposition, audio = graph.output.audio
        let size = vc.renderSize
        guard size.width > 0, size.height > 0, size.width % 2 == 0, size.height % 2 == 0 else {
            throw .invalidSettings("output size \(size) cannot be encoded as 4:2:0 video: use even, positive width and height")
        }
        guard vc.frameDuration.isPositive else { throw .invalidSettings("output frame duration \(vc.frameDuration) must be positive") }
        guard (8000...192_000).contains(audio.sampleRate), (1...8).contains(audio.channels) else {
            throw .invalidSettings("audio of \(audio.sampleRate) Hz, \(audio.channels) channels: use 8000–192000 Hz and 1–8 channels")
        }
        for ref in graph.mediaReferences { try unchanged(ref) }
        try ShaderShelf.prepare(graph)
        try TransitionMaps.prepare(graph)
        for track in graph.composition.tracks {
            for segment in track.segments {
                let ref: MediaReference
                switch segment.content {
                case .media(let r, _)?, .still(let r)?: ref = r
                default: continue
                }
                switch track.kind {
                case .video where !ref.facts.hasPicture:
                    throw .invalidSettings("media '\(ref.name)' (\(ref.path)) is shown on \(track.name) but has no picture")
                case .audio where !ref.facts.hasAudio:
                    throw .invalidSettings("media '\(ref.name)' (\(ref.path)) is heard on \(track.name) but has no audio stream; "
                                           + "mute the clip or pick a file with sound")
                default:
                    break
                }
            }
        }
    }

    /// The file is still there with the size and modification time its facts were read at.
    private static func unchanged(_ ref: MediaReference) throws(RenderError) {
        let now: FileStamp
        do {
            now = try MediaFactsReader.stamp(of: ref.path)
        } catch {
            switch error {
            case .missing: throw .missingFile(ref.path, name: ref.name)
            case .unreadable(_, let reason): throw .invalidSettings("media '\(ref.name)' (\(ref.path)) cannot be read: \(reason)")
            }
        }
        guard now == ref.facts.stamp else { throw .changedSinceChecked(ref.path, name: ref.name) }
    }
}
