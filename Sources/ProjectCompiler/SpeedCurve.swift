import CompositionGraph
import MediaTime

/// A speed ramp: speed (source seconds per timeline second) at clip-local timeline times,
/// eased between keyframes like any animation, constant before the first and after the last.
///
/// The source played by clip time τ is the integral of the speed from 0 to τ, `offset(at:)`.
/// Between keyframes with a linear (or hold) ease it is exact: v₀τ + (v₁ − v₀)τ²/2T, in
/// rationals. Under another ease it is v₀τ exactly plus (v₁ − v₀)·T·∫₀ˣ ease(u) du, the
/// integral by composite Simpson's rule over 64 equal steps of [0, x] in `Double` (the same
/// operations in the same order everywhere), rounded to a microsecond. Each time is computed
/// from the keyframe before it, never by adding up frames, so nothing drifts.
public struct SpeedCurve: Sendable {
    public struct Point: Sendable {
        public var time: MediaTime
        public var speed: Rational
        public var ease: Easing
        public var origin: Origin
    }

    public let points: [Point]
    /// `offset(at: points[i].time)`.
    private let offsets: [MediaTime]

    /// Points in time order, at least one, speeds positive.
    public init(points: [Point]) {
        precondition(!points.isEmpty, "a speed curve needs a keyframe")
        self.points = points
        var offsets = [MediaTime(points[0].time.value * points[0].speed)]
        for i in points.indices.dropFirst() {
            offsets.append(offsets[i - 1] + Self.integral(points[i - 1], points[i], over: points[i].time - points[i - 1].time))
        }
        self.offsets = offsets
    }

    /// Source time played from the clip's start to clip time `τ` (τ ≥ 0).
    public func offset(at τ: MediaTime) -> MediaTime {
        guard τ > points[0].time else { return τ * points[0].speed }
        var i = 0
        while i + 1 < points.count && points[i + 1].time <= τ { i += 1 }
        guard i + 1 < points.count else { return offsets[i] + (τ - points[i].time) * points[i].speed }
        return offsets[i] + Self.integral(points[i], points[i + 1], over: τ - points[i].time)
    }

    /// ∫ speed over the first `d` of the way from keyframe `a` to keyframe `b`.
    private static func integral(_ a: Point, _ b: Point, over d: MediaTime) -> MediaTime {
        let span = b.time - a.time
        guard span.isPositive else { return .zero }
        let rise = b.speed - a.speed
        let steady = d * a.speed
        switch a.ease {
        case .hold:
            return steady
        case .linear:
            return steady + MediaTime(d.value * d.value * rise / (Rational(2) * span.value))
        default:
            let x = (d / span).doubleValue
            let area = simpson(a.ease, upTo: x) * rise.doubleValue * span.value.doubleValue
            return steady + MediaTime(Rational(Int64((area * 1_000_000).rounded()), 1_000_000))
        }
    }

    /// ∫₀ˣ ease(u) du by composite Simpson's rule with 64 steps.
    private static func simpson(_ ease: Easing, upTo x: Double) -> Double {
        let steps = 64
        let h = x / Double(steps)
        var sum = ease.apply(0) + ease.apply(x)
        for k in 1..<steps { sum += (k % 2 == 1 ? 4 : 2) * ease.apply(Double(k) * h) }
        return sum * h / 3
    }

    /// The speed is constant from the last keyframe on; the ramp is over by then.
    public var end: MediaTime { points[points.count - 1].time }
    public var finalSpeed: Rational { points[points.count - 1].speed }

    /// How long the clip plays to read `source` of its media; nil when the ramp reads more
    /// than that before its last keyframe (the clip would end inside the ramp).
    public func timelineLength(forSource source: MediaTime) -> MediaTime? {
        let read = offsets[offsets.count - 1]
        guard read <= source else { return nil }
        return end + (source - read) / finalSpeed
    }

    /// The source read by the last keyframe.
    public var sourceReadByEnd: MediaTime { offsets[offsets.count - 1] }
}
