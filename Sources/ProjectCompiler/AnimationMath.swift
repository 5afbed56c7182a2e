import CompositionGraph
import MediaTime

extension Animation {
    /// Combines two animations value by value (a product of opacities, a sum of offsets).
    ///
    /// Exact wherever at most one of them changes: the time between keyframes is cut into
    /// pieces, and on each piece the changing one keeps its own curve, scaled or shifted by
    /// the other's constant value. Only where both change at once is the result sampled, at
    /// every `step` (the output frame times, where rendering evaluates it).
    func combined(with other: Animation, step: MediaTime, over range: TimeRange, _ op: (Double, Double) -> Double) -> Animation {
        if let c = other.constantValue { return mapValues { op($0, c) } }
        if let c = constantValue { return other.mapValues { op(c, $0) } }
        let cuts = Set(keyframes.map(\.time) + other.keyframes.map(\.time) + [range.start, range.end])
            .filter { $0 >= range.start && $0 <= range.end }.sorted()
        var pieces: [Animation] = []
        for (a, b) in zip(cuts, cuts.dropFirst()) {
            let piece = TimeRange(start: a, end: b)
            let mine = sliced(to: piece), theirs = other.sliced(to: piece)
            if let c = theirs.steadyValue {
                pieces.append(mine.mapValues { op($0, c) })
            } else if let c = mine.steadyValue {
                pieces.append(theirs.mapValues { op(c, $0) })
            } else {
                var frames: [Keyframe] = []
                var t = a
                while t < b {
                    frames.append(Keyframe(time: t, value: op(value(at: t), other.value(at: t))))
                    t += step
                }
                frames.append(Keyframe(time: b, value: op(mine.keyframes.last!.value, theirs.keyframes.last!.value)))
                pieces.append(Animation(keyframes: frames))
            }
        }
        return pieces.isEmpty ? self : .concatenation(pieces)
    }

    /// The value of a slice that does not change over it (a hold counts as changing).
    private var steadyValue: Double? {
        if let c = constantValue, !keyframes.dropLast().contains(where: { $0.ease == .hold }) { return c }
        return nil
    }

    private func mapValues(_ transform: (Double) -> Double) -> Animation {
        var copy = self
        copy.transformValues(transform)
        return copy
    }
}
