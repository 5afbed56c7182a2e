import MediaTime

/// A text or caption layer that enters or leaves a unit at a time (`enter: {kind: fade, by:
/// word, stagger: 0.04s}`): each unit of its text (a letter, a word, a line, as Pango's layout
/// splits it: see OverlayRendering's `TextUnits`) runs the same move, one after the other.
///
/// The layout is the text's own: every unit keeps the place, shaping and kerning it has in the
/// unanimated text, and moves, scales, fades or is wiped about its own box. Outside both
/// phases every unit is at rest and the layer draws exactly as without the motion.
public struct TextUnitMotion: Hashable, Sendable, Codable {
    public var enter: TextUnitPhase?
    public var exit: TextUnitPhase?

    public init(enter: TextUnitPhase? = nil, exit: TextUnitPhase? = nil) {
        self.enter = enter
        self.exit = exit
    }

    /// The unit the text is split by at `t` and every unit's pose then (`count(by)`: how many
    /// units the text has); nil when every unit is at rest, and the layer draws as plain text.
    /// The entrance rules until its last unit ends, the exit from its first unit's start; the
    /// two at once (a caption page too short for both) combine when they split by the same unit.
    public func frame(at t: MediaTime, count: (TextUnitPhase.Unit) -> Int) -> (by: TextUnitPhase.Unit, poses: [UnitPose])? {
        func active(_ phase: TextUnitPhase?) -> (TextUnitPhase, Int)? {
            guard let phase else { return nil }
            let n = count(phase.by)
            guard n > 0 else { return nil }
            let start = phase.start(count: n), end = start + phase.length(count: n)
            // An entrance is active until its end (before its start the units wait hidden), an exit from its start.
            return phase.edge == .enter ? (t < end ? (phase, n) : nil) : (t >= start ? (phase, n) : nil)
        }
        let entering = active(enter), leaving = active(exit)
        var result: (by: TextUnitPhase.Unit, poses: [UnitPose])?
        switch (entering, leaving) {
        case (let (e, n)?, let (x, m)?) where e.by == x.by:
            result = (e.by, zip(e.poses(count: n, at: t), x.poses(count: m, at: t)).map { $0.combined(with: $1) })
        case (let (e, n)?, _): result = (e.by, e.poses(count: n, at: t))
        case (nil, let (x, m)?): result = (x.by, x.poses(count: m, at: t))
        case (nil, nil): result = nil
        }
        guard let result, !result.poses.allSatisfy(\.isAtRest) else { return nil }
        return result
    }
}

/// One entrance or exit by unit.
public struct TextUnitPhase: Hashable, Sendable, Codable {
    /// What the text is split into.
    public enum Unit: String, Hashable, Sendable, Codable, CaseIterable {
        /// Grapheme clusters (what a reader sees as one letter: `e` with a combining accent,
        /// an Indic conjunct), whitespace left out.
        case letter
        /// Words as Unicode's word boundaries (UAX #29) find them; punctuation goes with the
        /// word before it (an opening bracket or quote with the word after it), an ideograph
        /// or a kana is a word of its own.
        case word
        /// The layout's lines (after wrapping).
        case line
        /// The whole text as one unit (a caption page's entrance without `by`).
        case whole
    }

    /// Entering or leaving.
    public enum Edge: String, Hashable, Sendable, Codable { case enter, exit }

    /// How the units follow one another.
    public enum Pace: Hashable, Sendable, Codable {
        /// Unit i starts i × `stagger` after the first and moves for `each`: the phase lasts
        /// each + (n − 1) × stagger.
        case stagger(MediaTime, each: MediaTime)
        /// The units share `total` evenly: stagger and each are total / n (a typewriter's
        /// duration is the time to type the whole text).
        case spread(MediaTime)
    }

    public var by: Unit
    public var edge: Edge
    public var pace: Pace
    /// Last unit first (a typewriter deleting); otherwise reading order (the text's logical
    /// order: right to left in Arabic or Hebrew, as it is read).
    public var reversed: Bool
    /// An entrance's start (its first unit's) or an exit's end (its last unit's), timeline time.
    public var time: MediaTime
    public var move: UnitMove

    public init(by: Unit, edge: Edge, pace: Pace, reversed: Bool = false, time: MediaTime, move: UnitMove) {
        self.by = by
        self.edge = edge
        self.pace = pace
        self.reversed = reversed
        self.time = time
        self.move = move
    }

    /// The time between two units' starts and the time each moves, for `n` units.
    public func timing(count n: Int) -> (stagger: MediaTime, each: MediaTime) {
        switch pace {
        case .stagger(let stagger, let each): (stagger, each)
        case .spread(let total): (total / Rational(Int64(max(n, 1))), total / Rational(Int64(max(n, 1))))
        }
    }

    /// How long the phase lasts for `n` units: each + (n − 1) × stagger.
    public func length(count n: Int) -> MediaTime {
        let (stagger, each) = timing(count: n)
        return each + stagger * Rational(Int64(max(n, 1) - 1))
    }

    /// When the phase's first unit starts.
    public func start(count n: Int) -> MediaTime { edge == .enter ? time : time - length(count: n) }

    /// When unit `index` (reading order) starts moving.
    public func start(ofUnit index: Int, count n: Int) -> MediaTime {
        let order = reversed ? n - 1 - index : index
        return start(count: n) + timing(count: n).stagger * Rational(Int64(order))
    }

    /// The pose of every unit at `t`: before its start a unit is as the move begins (an
    /// entering unit hidden), after its end as the move ends (a leaving unit gone).
    public func poses(count n: Int, at t: MediaTime) -> [UnitPose] {
        let each = timing(count: n).each
        return (0..<n).map { i in
            // Progress through the unit's move, exact: (t − start) / each, a fraction of it.
            let start = start(ofUnit: i, count: n)
            let progress: Rational = each.isPositive ? (t - start) / each : (t < start ? Rational(-1) : .one)
            return move.pose(at: MediaTime(progress))
        }
    }
}

/// What one unit does over its move, as keyframes at fractions of its time (0 its start, 1 its
/// end: `Keyframe.time` holds the fraction). Shifts are fractions of the unit's own box.
public struct UnitMove: Hashable, Sendable, Codable {
    public var opacity: Animation
    public var shiftX: Animation
    public var shiftY: Animation
    /// About the unit's centre.
    public var scale: Animation
    /// What a wipe leaves of the unit (fractions of its box); nil: all of it.
    public var reveal: RevealBox?

    public init(opacity: Animation = .constant(1), shiftX: Animation = .constant(0), shiftY: Animation = .constant(0),
                scale: Animation = .constant(1), reveal: RevealBox? = nil) {
        self.opacity = opacity
        self.shiftX = shiftX
        self.shiftY = shiftY
        self.scale = scale
        self.reveal = reveal
    }

    /// The pose at `progress` (a fraction of the move; before 0 the first keyframes' values,
    /// after 1 the last's).
    public func pose(at progress: MediaTime) -> UnitPose {
        UnitPose(opacity: opacity.value(at: progress), shiftX: shiftX.value(at: progress), shiftY: shiftY.value(at: progress),
                 scale: scale.value(at: progress),
                 reveal: reveal.map { r in
                     [r.left.value(at: progress), r.top.value(at: progress), r.right.value(at: progress), r.bottom.value(at: progress)]
                 } ?? UnitPose.uncut)
    }
}

/// Where one unit is and how it looks at one time, relative to where it rests.
public struct UnitPose: Hashable, Sendable {
    public var opacity: Double
    /// Fractions of the unit's box width and height.
    public var shiftX: Double
    public var shiftY: Double
    public var scale: Double
    /// Left, top, right, bottom edges a wipe leaves, fractions of the unit's box.
    public var reveal: [Double]

    public static let uncut: [Double] = [0, 0, 1, 1]
    public static let rest = UnitPose(opacity: 1, shiftX: 0, shiftY: 0, scale: 1, reveal: uncut)

    public init(opacity: Double, shiftX: Double, shiftY: Double, scale: Double, reveal: [Double]) {
        self.opacity = opacity
        self.shiftX = shiftX
        self.shiftY = shiftY
        self.scale = scale
        self.reveal = reveal
    }

    /// Drawn exactly as the unanimated text draws it.
    public var isAtRest: Bool {
        opacity >= 1 && shiftX == 0 && shiftY == 0 && scale == 1
            && reveal[0] <= 0 && reveal[1] <= 0 && reveal[2] >= 1 && reveal[3] >= 1
    }

    /// Nothing of it shows: below half an 8-bit step of opacity, scaled to nothing, or wiped away.
    public var isHidden: Bool {
        opacity * 255 < 0.5 || scale == 0 || reveal[2] <= reveal[0] || reveal[3] <= reveal[1]
    }

    /// Both at once (an entrance not over when the exit starts): opacities and scales multiply,
    /// shifts add, wipes intersect.
    public func combined(with other: UnitPose) -> UnitPose {
        UnitPose(opacity: min(opacity, 1) * min(other.opacity, 1), shiftX: shiftX + other.shiftX, shiftY: shiftY + other.shiftY,
                 scale: scale * other.scale,
                 reveal: [max(reveal[0], other.reveal[0]), max(reveal[1], other.reveal[1]),
                          min(reveal[2], other.reveal[2]), min(reveal[3], other.reveal[3])])
    }
}
