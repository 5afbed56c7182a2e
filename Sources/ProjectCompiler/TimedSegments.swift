import CompositionGraph
import MediaTime

extension CompileSession {
    /// The segments that play `source` of `ref` over the timeline range `target` with a clip's
    /// time effects. Without a ramp, one segment (reversed or not; a held frame has an empty
    /// source range). With a ramp, the clip is cut at every output frame time (and keyframe)
    /// where the speed changes, and each piece maps linearly between the exact integrals of
    /// the speed at its ends (`SpeedCurve.offset`): every frame starts a piece, so it shows the
    /// source at exactly the integrated time, and the sound of each piece is resampled at
    /// that piece's speed, meeting the picture again at every frame.
    func mediaSegments(_ ref: MediaReference, source: TimeRange, target: TimeRange, effects: TimeEffects) -> [Segment] {
        let reversed = effects.reverse
        guard let ramp = effects.ramp else { return [Segment(target: target, content: .media(ref, sourceRange: source), reversed: reversed)] }
        var cuts = [target.start, target.end]
        for p in ramp.points where target.start + p.time < target.end { cuts.append(target.start + p.time) }
        for (p, q) in zip(ramp.points, ramp.points.dropFirst()) where p.speed != q.speed {
            let lo = target.start + p.time, hi = min(target.start + q.time, target.end)
            var n = (lo / frameDuration).ceiling
            while frameDuration * Rational(n) < hi {
                cuts.append(frameDuration * Rational(n))
                n += 1
            }
        }
        let times = Array(Set(cuts.filter { $0 >= target.start && $0 <= target.end })).sorted()
        return zip(times, times.dropFirst()).map { a, b in
            let from = ramp.offset(at: a - target.start), to = ramp.offset(at: b - target.start)
            let range = reversed ? TimeRange(start: source.end - to, end: source.end - from) : TimeRange(start: source.start + from, end: source.start + to)
            return Segment(target: TimeRange(start: a, end: b), content: .media(ref, sourceRange: range), reversed: reversed)
        }
    }
}
