import CompositionGraph
import MediaTime

/// A text's entrance or exit by unit as written (`enter: {kind: fade, by: word}`): the phase,
/// timed (its `time`) once the layer's span is known.
public struct TextUnitMoveSpec: Sendable {
    public var phase: TextUnitPhase
    public var origin: Origin
}

/// The moves of one unit of a text, the named entrances and exits as they apply to a letter,
/// word or line: keyframes at fractions of the unit's time (`UnitMove`), the same values the
/// whole-layer moves (`NamedMoves`) write.
enum UnitMoves {
    static func spec(_ move: NamedMove) -> TextUnitMoveSpec {
        let typewriter = move.kind == "typewriter"
        let pace: TextUnitPhase.Pace
        if typewriter {
            pace = move.stagger.map { .stagger($0, each: $0) } ?? .spread(move.duration)
        } else {
            pace = .stagger(move.stagger ?? ProjectDecoder.defaultStagger, each: move.duration)
        }
        // A typewriter deletes from the end, as a backspace does; every other exit goes in reading order.
        let phase = TextUnitPhase(by: move.unit ?? .whole, edge: move.edge == .enter ? .enter : .exit, pace: pace,
                                  reversed: typewriter && move.edge == .exit, time: .zero, move: Self.move(move.kind, entering: move.edge == .enter))
        return TextUnitMoveSpec(phase: phase, origin: move.origin)
    }

    /// The keyframes of one unit running `kind`.
    static func move(_ kind: String, entering: Bool) -> UnitMove {
        func at(_ fraction: Rational) -> MediaTime { MediaTime(fraction) }
        /// From `away` at the start to `own` at the end (entering), or the other way (leaving).
        func change(_ away: Double, _ own: Double, _ ease: Easing) -> Animation {
            entering ? Animation(keyframes: [Keyframe(time: at(.zero), value: away, ease: ease), Keyframe(time: at(.one), value: own)])
                : Animation(keyframes: [Keyframe(time: at(.zero), value: own, ease: ease), Keyframe(time: at(.one), value: away)])
        }
        let fade = change(0, 1, .linear)
        var m = UnitMove()
        switch kind {
        case "fade":
            m.opacity = fade
        case "typewriter":
            // Two keyframes at one time are a step: a letter appears at its start, and is deleted at its end.
            let step = entering ? at(.zero) : at(.one)
            m.opacity = Animation(keyframes: [Keyframe(time: step, value: entering ? 0 : 1), Keyframe(time: step, value: entering ? 1 : 0)])
        case "pop":
            if entering {
                m.scale = Animation(keyframes: [Keyframe(time: at(.zero), value: 0.6, ease: .easeOut),
                                                Keyframe(time: at(Rational(7, 10)), value: 1.06, ease: .easeInOut), Keyframe(time: at(.one), value: 1)])
                m.opacity = Animation(keyframes: [Keyframe(time: at(.zero), value: 0), Keyframe(time: at(Rational(1, 2)), value: 1)])
            } else {
                m.scale = Animation(keyframes: [Keyframe(time: at(.zero), value: 1, ease: .easeInOut),
                                                Keyframe(time: at(Rational(3, 10)), value: 1.06, ease: .easeIn), Keyframe(time: at(.one), value: 0.6)])
                m.opacity = Animation(keyframes: [Keyframe(time: at(Rational(1, 2)), value: 1), Keyframe(time: at(.one), value: 0)])
            }
        case "grow", "shrink":
            m.scale = change(0, 1, entering ? .easeOut : .easeIn)
        default:
            let way = String(kind.drop { $0 != "-" }.dropFirst())
            if kind.hasPrefix("slide-") {
                // Half the unit's size back (entering) or on (leaving), fading as a whole layer's slide does.
                let v = NamedMoves.unit(way), sign = entering ? -0.5 : 0.5
                if v.x != 0 { m.shiftX = change(sign * v.x, 0, entering ? .easeOut : .easeIn) }
                if v.y != 0 { m.shiftY = change(sign * v.y, 0, entering ? .easeOut : .easeIn) }
                m.opacity = fade
            } else if kind.hasPrefix("wipe-") {
                var r = RevealBox.whole
                // Entering moving right, the right edge sweeps in from 0 (it uncovers); leaving moving right, the left edge out to 1 (it covers).
                switch (way, entering) {
                case ("right", true), ("left", false): r.right = change(0, 1, .easeInOut)
                case ("left", true), ("right", false): r.left = change(1, 0, .easeInOut)
                case ("down", true), ("up", false): r.bottom = change(0, 1, .easeInOut)
                default: r.top = change(1, 0, .easeInOut)
                }
                m.reveal = r
            }
        }
        return m
    }

    /// A rough count of a text's units where no layout is at hand (a resolver that does not lay
    /// text out): letters not blank, words between blanks, lines between line breaks.
    static func estimatedCount(of text: String, by unit: TextUnitPhase.Unit) -> Int {
        switch unit {
        case .letter: text.filter { !$0.isWhitespace }.count
        case .word: text.split(whereSeparator: \.isWhitespace).count
        case .line: text.split(separator: "\n").filter { !$0.allSatisfy(\.isWhitespace) }.count
        case .whole: text.allSatisfy(\.isWhitespace) ? 0 : 1
        }
    }
}
