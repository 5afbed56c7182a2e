import MediaTime

extension CompositionGraph {
    /// What must hold for any compiled graph; the renderer relies on it. Returns the broken
    /// rules (empty when all hold): instructions contiguous and covering the duration, every
    /// layer instruction naming an existing video track, ramps inside their instruction,
    /// keyframes in order, segments of a track in order without overlap, overlays in range.
    public func checkInvariants() -> [String] {
        var broken: [String] = []
        var cursor = MediaTime.zero
        for (i, instruction) in videoComposition.instructions.enumerated() {
            if instruction.timeRange.start != cursor {
                broken.append("instruction \(i) starts at \(instruction.timeRange.start), expected \(cursor)")
            }
            if instruction.timeRange.isEmpty { broken.append("instruction \(i) is empty") }
            cursor = instruction.timeRange.end
            for layer in instruction.layers {
                guard let track = composition.track(layer.trackID) else {
                    broken.append("instruction \(i) names track \(layer.trackID), which does not exist")
                    continue
                }
                if track.kind != .video { broken.append("instruction \(i) layers audio track \(layer.trackID)") }
                if track.segment(at: instruction.timeRange.start)?.content == nil {
                    broken.append("instruction \(i) layers track \(layer.trackID), which is empty at \(instruction.timeRange.start)")
                }
                for animation in layer.animations {
                    if !animation.isInside(instruction.timeRange) { broken.append("instruction \(i): a ramp of track \(layer.trackID) leaves the instruction") }
                    if !animation.isOrdered { broken.append("instruction \(i): keyframes of track \(layer.trackID) out of order") }
                }
            }
        }
        if cursor != duration { broken.append("instructions end at \(cursor), the composition at \(duration)") }
        for track in composition.tracks {
            var end = MediaTime.zero
            for segment in track.segments {
                if segment.target.start < end { broken.append("track \(track.id): segments overlap at \(segment.target.start)") }
                if segment.target.isEmpty { broken.append("track \(track.id): empty segment at \(segment.target.start)") }
                end = segment.target.end
            }
        }
        for mix in audioMix.tracks {
            if composition.track(mix.trackID)?.kind != .audio { broken.append("audio mix names track \(mix.trackID), which is not an audio track") }
            if !mix.volume.isOrdered { broken.append("audio mix of track \(mix.trackID): keyframes out of order") }
            if let duck = mix.duck {
                if duck.keyTrackIDs.isEmpty || duck.keyTrackIDs.contains(where: { $0 == mix.trackID || audioMix.parameters(for: $0) == nil }) {
                    broken.append("audio mix of track \(mix.trackID): ducks under \(duck.keyTrackIDs), which are not other mixed tracks")
                }
                if !(duck.depth > 0) || duck.attack.isNegative || duck.release.isNegative {
                    broken.append("audio mix of track \(mix.trackID): ducking depth \(duck.depth), attack \(duck.attack), release \(duck.release)")
                }
            }
        }
        for (i, overlay) in overlays.enumerated() where overlay.timeRange.isEmpty || overlay.timeRange.start.isNegative {
            broken.append("overlay \(i) has time range \(overlay.timeRange)")
        }
        return broken
    }
}

extension Animation {
    /// Keyframe times never decrease.
    public var isOrdered: Bool { zip(keyframes, keyframes.dropFirst()).allSatisfy { $0.time <= $1.time } }
}
