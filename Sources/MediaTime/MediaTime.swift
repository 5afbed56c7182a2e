/// A point or a length on a timeline, in exact rational seconds.
///
/// Frame n of an output at `frameDuration` d is at exactly `MediaTime.frame(n, d)`; sample k
/// at rate r is at `k / r`. Convert to floating point only for display (`seconds`).
public struct MediaTime: Hashable, Comparable, Sendable {
    public let value: Rational

    public init(_ value: Rational) { self.value = value }
    public init(seconds: Int) { value = Rational(seconds) }
    public init(_ numerator: Int64, _ denominator: Int64) { value = Rational(numerator, denominator) }

    public static let zero = MediaTime(.zero)

    /// Start of frame `index` at the given frame duration.
    public static func frame(_ index: Int64, duration: MediaTime) -> MediaTime {
        MediaTime(Rational(index) * duration.value)
    }

    /// Start of sample `index` at `rate` samples per second.
    public static func sample(_ index: Int64, rate: Int) -> MediaTime { MediaTime(index, Int64(rate)) }

    /// Floating-point seconds: for display only.
    public var seconds: Double { value.doubleValue }
    public var isNegative: Bool { value.isNegative }
    public var isZero: Bool { value.isZero }
    public var isPositive: Bool { !value.isNegative && !value.isZero }

    /// Index of the frame that contains this time: ⌊t / d⌋.
    public func frameIndex(frameDuration d: MediaTime) -> Int64 { (value / d.value).floor }

    /// Number of frames of duration `d` that start before this time: ⌈t / d⌉.
    public func frameCount(frameDuration d: MediaTime) -> Int64 { (value / d.value).ceiling }

    /// The sample at this time: round(t × rate), halves away from zero.
    public func samplePosition(rate: Int) -> Int64 { (value * Rational(rate)).rounded }

    public static func + (a: MediaTime, b: MediaTime) -> MediaTime { MediaTime(a.value + b.value) }
    public static func - (a: MediaTime, b: MediaTime) -> MediaTime { MediaTime(a.value - b.value) }
    public static prefix func - (a: MediaTime) -> MediaTime { MediaTime(-a.value) }
    public static func * (a: MediaTime, b: Rational) -> MediaTime { MediaTime(a.value * b) }
    public static func / (a: MediaTime, b: Rational) -> MediaTime { MediaTime(a.value / b) }
    /// The ratio of two durations (a speed, a progress fraction).
    public static func / (a: MediaTime, b: MediaTime) -> Rational { a.value / b.value }
    public static func += (a: inout MediaTime, b: MediaTime) { a = a + b }
    public static func -= (a: inout MediaTime, b: MediaTime) { a = a - b }
    public static func < (a: MediaTime, b: MediaTime) -> Bool { a.value < b.value }
}

extension MediaTime: CustomStringConvertible {
    /// Exact seconds: `10`, `299/30`.
    public var description: String { value.description }
}

/// A half-open range `[start, start + duration)` on a timeline.
public struct TimeRange: Hashable, Sendable {
    public var start: MediaTime
    public var duration: MediaTime

    public init(start: MediaTime, duration: MediaTime) {
        self.start = start
        self.duration = duration
    }

    public init(start: MediaTime, end: MediaTime) {
        self.init(start: start, duration: end - start)
    }

    public var end: MediaTime { start + duration }
    public var isEmpty: Bool { !duration.isPositive }

    public func contains(_ t: MediaTime) -> Bool { t >= start && t < end }

    /// The overlap of two ranges, or nil if they do not overlap.
    public func intersection(_ other: TimeRange) -> TimeRange? {
        let s = max(start, other.start), e = min(end, other.end)
        return s < e ? TimeRange(start: s, end: e) : nil
    }

    public func shifted(by offset: MediaTime) -> TimeRange { TimeRange(start: start + offset, duration: duration) }
}

extension TimeRange: CustomStringConvertible {
    public var description: String { "[\(start), \(end))" }
}

/// Maps a target (timeline) range onto a source range linearly: the AVFoundation segment's
/// time mapping. A speed of 2 plays `2 × target.duration` of source in `target.duration`.
public struct TimeMapping: Hashable, Sendable {
    public var source: TimeRange
    public var target: TimeRange

    public init(source: TimeRange, target: TimeRange) {
        self.source = source
        self.target = target
    }

    /// Source seconds per timeline second.
    public var speed: Rational { source.duration / target.duration }

    /// The source time shown at timeline time `t`.
    public func sourceTime(at t: MediaTime) -> MediaTime {
        source.start + (t - target.start) * speed
    }

    /// The timeline time at which source time `s` is shown.
    public func targetTime(at s: MediaTime) -> MediaTime {
        target.start + (s - source.start) / speed
    }
}

extension MediaTime: Codable {
    public init(from decoder: any Decoder) throws { value = try Rational(from: decoder) }
    public func encode(to encoder: any Encoder) throws { try value.encode(to: encoder) }
}

extension TimeRange: Codable {}
