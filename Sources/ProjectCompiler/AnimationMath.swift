import CompositionGraph
import MediaTime

extension Animation {
    /// Combines two animations value by value (a product of opacities, a sum of offsets).
    /// Exact when either is constant; otherwise sampled at both animations' keyframes and at
    /// every `step` inside `range` (the output frame times, where rendering evaluates it).
    func combined(with other: Animation, step: MediaTime, over range: TimeRange, _ op: (Double, Double) -> Double) -> Animation {
        if let c = other.constantValue { return mapValues { op($0, c) } }
        if let c = constantValue { return other.mapValues { op(c, $0) } }
        var times = Set(keyframes.map(\.time) + other.keyframes.map(\.time))
        var t = range.start
        while t < range.end {
            times.insert(t)
            t += step
        }
        times.insert(range.end)
        return Animation(keyframes: times.sorted().map { Keyframe(time: $0, value: op(value(at: $0), other.value(at: $0))) })
    }

    private func mapValues(_ transform: (Double) -> Double) -> Animation {
        var copy = self
        copy.transformValues(transform)
        return copy
    }
}
