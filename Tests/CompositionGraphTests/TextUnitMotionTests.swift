import CompositionGraph
import MediaTime
import TestSupport
import Testing

/// The timing of a text entering or leaving by unit: unit i starts i × stagger after the
/// first, the whole lasts each + (n − 1) × stagger, in exact rational time.
@Suite struct TextUnitMotionTests {
    static let fade = UnitMove(opacity: Animation(keyframes: [Keyframe(time: .zero, value: 0), Keyframe(time: seconds(1), value: 1)]))
    static let fadeOut = UnitMove(opacity: Animation(keyframes: [Keyframe(time: .zero, value: 1), Keyframe(time: seconds(1), value: 0)]))
    /// A letter appears at its start (two keyframes at one time: a step).
    static let type = UnitMove(opacity: Animation(keyframes: [Keyframe(time: .zero, value: 0), Keyframe(time: .zero, value: 1)]))
    static let untype = UnitMove(opacity: Animation(keyframes: [Keyframe(time: seconds(1), value: 1), Keyframe(time: seconds(1), value: 0)]))

    func opacities(_ phase: TextUnitPhase, _ n: Int, at t: MediaTime) -> [Double] { phase.poses(count: n, at: t).map(\.opacity) }

    @Test func unitIStartsIStaggersLater() {
        // Three words entering from 1 s, 0.04 s apart, each fading for 0.5 s.
        let phase = TextUnitPhase(by: .word, edge: .enter, pace: .stagger(seconds(1, 25), each: seconds(1, 2)), time: seconds(1), move: Self.fade)
        #expect(phase.length(count: 3) == MediaTime(Rational(29, 50)), "0.5 + 2 × 0.04")
        #expect((0..<3).map { phase.start(ofUnit: $0, count: 3) } == [seconds(1), MediaTime(Rational(26, 25)), MediaTime(Rational(27, 25))])
        #expect(opacities(phase, 3, at: MediaTime(Rational(5, 4))) == [0.5, 0.42, 0.34])
        #expect(opacities(phase, 3, at: seconds(1)) == [0, 0, 0])
        #expect(opacities(phase, 3, at: MediaTime(Rational(79, 50))) == [1, 1, 1], "all in at 1.58 s")
        #expect(opacities(phase, 3, at: MediaTime(Rational(78, 50))) == [1, 1, 0.96])
    }

    @Test func anExitEndsWithItsLastUnitAtTheEnd() {
        let phase = TextUnitPhase(by: .word, edge: .exit, pace: .stagger(seconds(1, 25), each: seconds(1, 2)), time: seconds(5), move: Self.fadeOut)
        #expect(phase.start(count: 3) == MediaTime(Rational(221, 50)), "5 − 0.58")
        #expect(phase.start(ofUnit: 2, count: 3) == MediaTime(Rational(9, 2)))
        let late = opacities(phase, 3, at: MediaTime(Rational(123, 25)))  // 4.92 s
        #expect(late[0] == 0 && abs(late[1] - 0.08) < 1e-12)
        #expect(abs(late[2] - 0.16) < 1e-12)
        #expect(opacities(phase, 3, at: seconds(5)) == [0, 0, 0])
    }

    @Test func aTypewriterSharesItsDurationAmongTheLetters() {
        // Five letters typed in 1 s from 1 s: letter i appears at 1 + i / 5 s, at once.
        let phase = TextUnitPhase(by: .letter, edge: .enter, pace: .spread(seconds(1)), time: seconds(1), move: Self.type)
        #expect(phase.length(count: 5) == seconds(1))
        #expect(opacities(phase, 5, at: MediaTime(Rational(7, 5))) == [1, 1, 1, 0, 0])
        #expect(opacities(phase, 5, at: MediaTime(Rational(7, 5)) - MediaTime(1, 1000)) == [1, 1, 0, 0, 0])
        let motion = TextUnitMotion(enter: phase)
        #expect(motion.frame(at: MediaTime(Rational(9, 5))) { _ in 5 } == nil, "all typed at 1.8 s: drawn as plain text")
        #expect(motion.frame(at: MediaTime(Rational(179, 100))) { _ in 5 }?.poses.map(\.opacity) == [1, 1, 1, 1, 0])
    }

    @Test func aTypewriterDeletesTheLastLetterFirst() {
        // "abc" deleted over the last 0.6 s before 3 s: c at 2.6 s, b at 2.8 s, a at 3 s (as a backspace would).
        let phase = TextUnitPhase(by: .letter, edge: .exit, pace: .spread(MediaTime(Rational(3, 5))), reversed: true, time: seconds(3), move: Self.untype)
        #expect(opacities(phase, 3, at: MediaTime(Rational(259, 100))) == [1, 1, 1])
        #expect(opacities(phase, 3, at: MediaTime(Rational(13, 5))) == [1, 1, 0])
        #expect(opacities(phase, 3, at: MediaTime(Rational(14, 5))) == [1, 0, 0])
        #expect(opacities(phase, 3, at: MediaTime(Rational(299, 100))) == [1, 0, 0])
    }

    @Test func outsideBothPhasesEveryUnitRests() {
        let enter = TextUnitPhase(by: .word, edge: .enter, pace: .stagger(seconds(1, 10), each: seconds(1, 2)), time: .zero, move: Self.fade)
        let exit = TextUnitPhase(by: .line, edge: .exit, pace: .stagger(seconds(1, 10), each: seconds(1, 2)), time: seconds(4), move: Self.fadeOut)
        let motion = TextUnitMotion(enter: enter, exit: exit)
        let count: (TextUnitPhase.Unit) -> Int = { $0 == .word ? 4 : 2 }
        #expect(motion.frame(at: seconds(2), count: count) == nil)
        #expect(motion.frame(at: MediaTime(Rational(1, 2)), count: count)?.by == .word)
        #expect(motion.frame(at: MediaTime(Rational(7, 2)), count: count)?.by == .line)
        #expect(motion.frame(at: seconds(3), count: count) == nil, "the exit starts at 4 − 0.6 s")
    }
}
