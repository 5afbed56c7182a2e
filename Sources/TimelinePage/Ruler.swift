import MediaTime

/// The time ruler: labelled ticks at a round step chosen so that labels do not crowd at the
/// time area's minimum width, with unlabelled minor ticks between them.
enum Ruler {
    /// Candidate steps in seconds, with how many parts the minor ticks cut each into.
    static let steps: [(step: Rational, minorParts: Int)] = [
        (Rational(1, 100), 5), (Rational(1, 50), 4), (Rational(1, 20), 5), (Rational(1, 10), 5), (Rational(1, 5), 4),
        (Rational(1, 2), 5), (Rational(1), 5), (Rational(2), 4), (Rational(5), 5), (Rational(10), 5), (Rational(15), 3),
        (Rational(30), 6), (Rational(60), 6), (Rational(120), 4), (Rational(300), 5), (Rational(600), 5), (Rational(900), 3),
        (Rational(1800), 6), (Rational(3600), 6), (Rational(7200), 4), (Rational(21600), 6), (Rational(43200), 4), (Rational(86400), 4),
    ]

    /// Room for one clock label (`00:00:05.000` in the ruler's small monospace font), CSS pixels.
    static let labelSpacing = 96

    /// The smallest step whose ticks are at least `labelSpacing` pixels apart.
    static func step(pixelsPerSecond: Rational) -> (step: Rational, minorParts: Int) {
        let needed = Rational(labelSpacing) / pixelsPerSecond
        if let fitting = steps.first(where: { $0.step >= needed }) { return fitting }
        return (Rational((needed / Rational(86400)).ceiling * 86400), 4)
    }

    struct Tick: Equatable {
        var time: MediaTime
        var isMajor: Bool
    }

    /// Every tick from zero up to the end of `scale`'s timeline (inclusive).
    static func ticks(_ scale: TimelineScale) -> [Tick] {
        let (step, parts) = step(pixelsPerSecond: scale.pixelsPerSecond)
        let minor = step / Rational(parts)
        var ticks: [Tick] = []
        var index: Int64 = 0
        while true {
            let t = MediaTime(minor * Rational(index))
            if t > scale.duration { break }
            ticks.append(Tick(time: t, isMajor: index % Int64(parts) == 0))
            index += 1
        }
        return ticks
    }
}
