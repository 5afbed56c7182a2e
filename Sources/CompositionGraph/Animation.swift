import MediaTime

/// An easing the project format names: `ease-out`, with what it does (for docs/format.md).
public struct NamedEasing: Sendable {
    public let name: String
    public let easing: Easing
    public let summary: String

    init(_ name: String, _ easing: Easing, _ summary: String) {
        self.name = name
        self.easing = easing
        self.summary = summary
    }
}

/// How a value moves from one keyframe to the next.
public enum Easing: Hashable, Sendable, Codable {
    case linear
    /// Keeps the keyframe's value until the next keyframe, then jumps.
    case hold
    case easeIn
    case easeOut
    case easeInOut
    /// CSS-style cubic Bézier through (0,0), (x1,y1), (x2,y2), (1,1).
    case cubicBezier(Double, Double, Double, Double)
    /// One of Penner's families at the start, the end or both (`ease-out-expo`).
    case family(EasingFamily, EasingEnd)
    /// `steps(n)`: n equal jumps, each at the end of its nth of the way (CSS's `steps(n)`),
    /// the last at the next keyframe.
    case steps(Int)

    /// Eased progress for linear progress `x` in [0, 1].
    public func apply(_ x: Double) -> Double {
        if x <= 0 { return 0 }
        if x >= 1 { return 1 }
        switch self {
        case .linear: return x
        case .hold: return x >= 1 ? 1 : 0
        case .easeIn: return Self.bezier(0.42, 0, 1, 1, x)
        case .easeOut: return Self.bezier(0, 0, 0.58, 1, x)
        case .easeInOut: return Self.bezier(0.42, 0, 0.58, 1, x)
        case .cubicBezier(let x1, let y1, let x2, let y2): return Self.bezier(x1, y1, x2, y2, x)
        case .family(let family, let end): return family.value(x, end: end)
        case .steps(let count): return (x * Double(count)).rounded(.down) / Double(count)
        }
    }

    /// Whether the eased progress only grows from 0 to 1 (back, elastic and bounce swing
    /// beyond or back).
    public var isMonotone: Bool {
        guard case .family(let family, _) = self else { return true }
        return ![.back, .elastic, .bounce].contains(family)
    }

    /// The largest number of steps `steps(n)` takes.
    public static let maximumSteps = 1000

    /// The easings the project format names (`ease: ease-out`), in the schema's order; any other
    /// is written `cubic-bezier(x1, y1, x2, y2)` or `steps(n)`. A new one is a case above, its
    /// curve in `apply`, an entry here, and `scripts/generate-format` for the schema and docs.
    public static let named: [NamedEasing] = [
        NamedEasing("linear", .linear, "at a constant speed (the default)"),
        NamedEasing("hold", .hold, "stays at this keyframe's value, then jumps to the next"),
        NamedEasing("ease-in", .easeIn, "starts slowly: `cubic-bezier(0.42, 0, 1, 1)`"),
        NamedEasing("ease-out", .easeOut, "ends slowly: `cubic-bezier(0, 0, 0.58, 1)`"),
        NamedEasing("ease-in-out", .easeInOut, "starts and ends slowly: `cubic-bezier(0.42, 0, 0.58, 1)`"),
    ] + EasingFamily.allCases.flatMap { family in
        EasingEnd.allCases.map { end in NamedEasing("ease-\(end.rawValue)-\(family.rawValue)", .family(family, end), family.summary(end)) }
    }

    /// The named easing `name` (`ease-in`), if there is one.
    public init?(named name: String) {
        guard let named = Self.named.first(where: { $0.name == name }) else { return nil }
        self = named.easing
    }

    /// The project format's name for the easing (`ease-out-expo`, `steps(4)`); nil for a
    /// `cubic-bezier(…)`.
    public var name: String? {
        if case .steps(let count) = self { return "steps(\(count))" }
        return Self.named.first { $0.easing == self }?.name
    }

    /// Solves the Bézier's x(s) = x by bisection (monotone for x1, x2 in [0, 1]), returns y(s).
    /// Bisection to 2⁻⁴⁰ is exact to display precision and deterministic on every CPU.
    static func bezier(_ x1: Double, _ y1: Double, _ x2: Double, _ y2: Double, _ x: Double) -> Double {
        func curve(_ a: Double, _ b: Double, _ s: Double) -> Double {
            let u = 1 - s
            return 3 * u * u * s * a + 3 * u * s * s * b + s * s * s
        }
        var lo = 0.0, hi = 1.0
        for _ in 0..<40 {
            let mid = (lo + hi) / 2
            if curve(x1, x2, mid) < x { lo = mid } else { hi = mid }
        }
        return curve(y1, y2, (lo + hi) / 2)
    }
}

/// A value at a time on the timeline, with the easing of the way to the next keyframe.
public struct Keyframe: Hashable, Sendable, Codable {
    public var time: MediaTime
    public var value: Double
    public var ease: Easing

    public init(time: MediaTime, value: Double, ease: Easing = .linear) {
        self.time = time
        self.value = value
        self.ease = ease
    }
}

/// An animatable number: a constant or keyframes in timeline time (AVFoundation's ramps).
///
/// Before the first keyframe the value is the first keyframe's; after the last, the last's.
/// Two keyframes at the same time make a step: from that time on the later one holds.
public struct Animation: Hashable, Sendable, Codable {
    public private(set) var keyframes: [Keyframe]
    /// Easing between keyframe i and i+1 applies to a part of the original curve when the
    /// animation was cut at an instruction boundary (see `sliced(to:)`): `[from, to]` of it.
    public private(set) var easeWindows: [EaseWindow]?

    public struct EaseWindow: Hashable, Sendable, Codable {
        public var from: Double
        public var to: Double
        /// The whole segment's values at its two keyframes, for an easing that swings beyond
        /// them (`Easing.isMonotone` false): the slice's two ends may hold one value with a
        /// swing between them, which their values alone cannot give back. Nil otherwise.
        public var ends: [Double]? = nil
    }

    public init(keyframes: [Keyframe]) {
        precondition(!keyframes.isEmpty, "an animation needs at least one keyframe")
        self.keyframes = keyframes
        self.easeWindows = nil
    }

    public static func constant(_ value: Double) -> Animation {
        Animation(keyframes: [Keyframe(time: .zero, value: value)])
    }

    /// A ramp from `from` to `to` over `range`, like AVFoundation's `setOpacityRamp`.
    public static func ramp(from: Double, to: Double, over range: TimeRange, ease: Easing = .linear) -> Animation {
        Animation(keyframes: [Keyframe(time: range.start, value: from, ease: ease), Keyframe(time: range.end, value: to)])
    }

    public var isConstant: Bool { keyframes.allSatisfy { $0.value == keyframes[0].value } }
    public var constantValue: Double? { isConstant ? keyframes[0].value : nil }

    /// The value at time `t`.
    public func value(at t: MediaTime) -> Double {
        guard let last = keyframes.last, t < last.time else { return keyframes[keyframes.count - 1].value }
        guard t >= keyframes[0].time else { return keyframes[0].value }
        // The last keyframe at or before t (the later one of a step).
        var i = 0
        while i + 1 < keyframes.count && keyframes[i + 1].time <= t { i += 1 }
        let a = keyframes[i], b = keyframes[i + 1]
        let progress = ((t - a.time) / (b.time - a.time)).doubleValue
        if let window = easeWindows?[i], let ends = window.ends {
            return ends[0] + (ends[1] - ends[0]) * a.ease.apply(window.from + progress * (window.to - window.from))
        }
        return a.value + (b.value - a.value) * easedProgress(segment: i, progress)
    }

    private func easedProgress(segment i: Int, _ x: Double) -> Double {
        let ease = keyframes[i].ease
        guard let window = easeWindows?[i] else { return ease.apply(x) }
        let p0 = ease.apply(window.from), p1 = ease.apply(window.to)
        guard p1 != p0 else { return x >= 1 ? 1 : 0 }
        return (ease.apply(window.from + x * (window.to - window.from)) - p0) / (p1 - p0)
    }

    /// The same curve restricted to `range`: keyframes outside it are replaced by keyframes at
    /// its edges, so a ramp can sit inside one instruction without changing its shape.
    public func sliced(to range: TimeRange) -> Animation {
        if isConstant { return Animation.constant(keyframes[0].value) }
        var result: [Keyframe] = []
        var windows: [EaseWindow] = []
        let points = [range.start] + keyframes.map(\.time).filter { $0 > range.start && $0 < range.end } + [range.end]
        for (k, t) in points.enumerated() {
            let (segment, fraction) = locate(t)
            var frame = Keyframe(time: t, value: value(at: t), ease: segment.map { keyframes[$0].ease } ?? .linear)
            if k + 1 < points.count, let s = segment {
                let end = locate(points[k + 1])
                let to = end.segment == s ? end.fraction : 1
                windows.append(composedWindow(segment: s, from: fraction, to: to))
            } else if k + 1 < points.count {
                frame.ease = .linear
                windows.append(EaseWindow(from: 0, to: 1))
            }
            result.append(frame)
        }
        var sliced = Animation(keyframes: result)
        sliced.easeWindows = windows.allSatisfy { $0 == EaseWindow(from: 0, to: 1) } ? nil : windows
        return sliced
    }

    /// The keyframe segment containing `t` (nil outside the keyframes) and the progress in it.
    private func locate(_ t: MediaTime) -> (segment: Int?, fraction: Double) {
        guard keyframes.count > 1, t >= keyframes[0].time, t < keyframes[keyframes.count - 1].time else { return (nil, 0) }
        var i = 0
        while i + 1 < keyframes.count && keyframes[i + 1].time <= t { i += 1 }
        return (i, ((t - keyframes[i].time) / (keyframes[i + 1].time - keyframes[i].time)).doubleValue)
    }

    private func composedWindow(segment s: Int, from: Double, to: Double) -> EaseWindow {
        let ends = keyframes[s].ease.isMonotone ? nil : easeWindows?[s].ends ?? [keyframes[s].value, keyframes[s + 1].value]
        guard let w = easeWindows?[s] else { return EaseWindow(from: from, to: to, ends: ends) }
        let span = w.to - w.from
        return EaseWindow(from: w.from + from * span, to: w.from + to * span, ends: ends)
    }

    /// Joins animations that follow one another in time (each one's keyframes before the
    /// next one's): between two parts the earlier part's last value holds.
    public static func concatenation(_ parts: [Animation]) -> Animation {
        precondition(!parts.isEmpty, "nothing to concatenate")
        var frames: [Keyframe] = []
        var windows: [EaseWindow] = []
        for part in parts {
            var partFrames = part.keyframes
            var partWindows = part.easeWindows ?? Array(repeating: EaseWindow(from: 0, to: 1), count: partFrames.count - 1)
            // A constant part (one keyframe, at time zero) holds its value from where the
            // previous part ends: its keyframe moves there, so keyframes stay in time order.
            if partFrames.count == 1, let last = frames.last, partFrames[0].time < last.time { partFrames[0].time = last.time }
            if let last = frames.last {
                if last.time == partFrames[0].time && last.value == partFrames[0].value {
                    // The parts meet: keep one keyframe, with the next part's easing.
                    frames.removeLast()
                } else {
                    frames[frames.count - 1].ease = .hold
                    windows.append(EaseWindow(from: 0, to: 1))
                }
            }
            frames += partFrames
            windows += partWindows
            partFrames = []
            partWindows = []
        }
        var joined = Animation(keyframes: frames)
        joined.easeWindows = windows.allSatisfy { $0 == EaseWindow(from: 0, to: 1) } ? nil : windows
        return joined
    }

    /// Applies `transform` to every keyframe's value, keeping times and easing.
    public mutating func transformValues(_ transform: (Double) -> Double) {
        for i in keyframes.indices { keyframes[i].value = transform(keyframes[i].value) }
    }

    /// The same curve with every value multiplied by `factor` (timing and easing unchanged).
    public func scaled(by factor: Double) -> Animation {
        var scaled = self
        scaled.keyframes = keyframes.map { Keyframe(time: $0.time, value: $0.value * factor, ease: $0.ease) }
        return scaled
    }

    /// Whether every keyframe lies inside `range` (ends included).
    public func isInside(_ range: TimeRange) -> Bool {
        isConstant || keyframes.allSatisfy { $0.time >= range.start && $0.time <= range.end }
    }
}
