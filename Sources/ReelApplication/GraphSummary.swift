import CompositionGraph

extension CompositionGraph {
    /// `12.5s, 3 tracks, 7 instructions`: what `reel validate` says of a valid project.
    public var summary: String {
        let ms = (duration.seconds * 1000).rounded()
        let seconds = ms.truncatingRemainder(dividingBy: 1000) == 0 ? String(Int(ms / 1000)) : String(ms / 1000)
        return "\(seconds)s, \(counted(composition.tracks.count, "track")), \(counted(videoComposition.instructions.count, "instruction"))"
    }
}
