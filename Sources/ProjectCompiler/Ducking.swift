import CompositionGraph

/// The audio lanes (composition track IDs) each project track is heard on, by track name, in
/// project order: video tracks first, then audio tracks.
struct HeardLanes {
    private(set) var named: [(name: String?, ids: [Int])] = []

    mutating func add(_ name: String?, ids: [Int]) { named.append((name, ids)) }
}

extension CompileSession {
    /// Turns each audio track's `duck:` into a `Ducking` on the mix of its lanes, keyed on
    /// the lanes of the track it names.
    mutating func applyDucking(to mix: inout [AudioMixTrack], lanes: HeardLanes) {
        let audioOffset = project.videoTracks.count
        for (index, track) in project.audioTracks.enumerated() {
            guard let spec = track.duck else { continue }
            let matches = lanes.named.indices.filter { lanes.named[$0].name == spec.under }
            guard let key = matches.first else {
                let names = lanes.named.compactMap(\.name)
                problems.report("duck: no track is named '\(spec.under)'", at: spec.origin,
                                hint: names.isEmpty ? "give the voice track a name: (name: voice) and write it here"
                                                    : "the named tracks are: \(names.joined(separator: ", "))")
                continue
            }
            if matches.count > 1 {
                problems.report("duck: \(matches.count) tracks are named '\(spec.under)'", at: spec.origin, hint: "give each track its own name")
            } else if key == audioOffset + index {
                problems.report("duck: a track cannot duck under itself", at: spec.origin, hint: "name the track it should make room for")
            } else if lanes.named[key].ids.isEmpty {
                problems.report("duck: the track '\(spec.under)' has no sound (its clips are muted or have no audio)", at: spec.origin)
            } else {
                let ducking = Ducking(keyTrackIDs: lanes.named[key].ids, depth: spec.by, threshold: spec.threshold,
                                      attack: spec.attack, release: spec.release)
                let own = Set(lanes.named[audioOffset + index].ids)
                for i in mix.indices where own.contains(mix[i].trackID) { mix[i].duck = ducking }
            }
        }
    }
}
