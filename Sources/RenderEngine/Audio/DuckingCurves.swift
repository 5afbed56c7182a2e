import CompositionGraph
import MediaTime

/// The gain each ducked track gets over the timeline (`reel graph --html` draws it): the
/// whole mix is run as the render runs it, and each ducker's gain is kept every 10 ms, as
/// linear keyframes where it moves.
public enum DuckingCurves {
    /// The ducking gain (linear, 1 = not ducked) of every ducked track, by track ID. Throws
    /// `RenderError` when a media file cannot be read.
    public static func compute(_ graph: CompositionGraph) throws -> [Int: Animation] {
        let ducked = graph.audioMix.tracks.filter { $0.duck != nil }
        guard !ducked.isEmpty else { return [:] }
        let rate = graph.output.audio.sampleRate, channels = graph.output.audio.channels
        let step = Int64(rate / 100)
        let access = MediaAccess.mediaIO(channels: channels, decoderThreads: 1)
        let mixer = AudioMixer(graph: graph, sampleRate: rate, channels: channels, makeSource: access.openAudio)
        var points: [Ducking: [Keyframe]] = [:]
        mixer.observeDucking = { ducking, start, gains in
            var i = (step - start % step) % step
            while i < Int64(gains.count) {
                let keyframe = Keyframe(time: .sample(start + i, rate: rate), value: Double(gains[Int(i)]))
                points[ducking, default: []].appendMovement(keyframe)
                i += step
            }
        }
        let blockSize = Int(step) * 100
        let block = UnsafeMutablePointer<Float>.allocate(capacity: blockSize * channels)
        defer { block.deallocate() }
        let end = graph.duration.samplePosition(rate: rate)
        var next: Int64 = 0
        while next < end {
            let n = Int(min(Int64(blockSize), end - next))
            try mixer.mix(from: next, count: n, into: block)
            next += Int64(n)
        }
        var curves: [Int: Animation] = [:]
        for track in ducked {
            if let keyframes = points[track.duck!], !keyframes.isEmpty { curves[track.trackID] = Animation(keyframes: keyframes) }
        }
        return curves
    }
}

private extension [Keyframe] {
    /// Appends `keyframe`, dropping the last one when it lies on a flat stretch (the same value
    /// before and after it).
    mutating func appendMovement(_ keyframe: Keyframe) {
        if count >= 2, self[count - 1].value == keyframe.value, self[count - 2].value == keyframe.value { removeLast() }
        append(keyframe)
    }
}
