import CompositionGraph
import MediaTime
import Testing

/// Concatenated animations keep their keyframes in time order when a part is constant (found
/// by the project fuzzer: a clip fading in from a transition, then plain clips on the same
/// audio lane, gave a volume ramp whose constant parts jumped back to time zero).
@Suite struct ConcatenationTests {
    func t(_ n: Int64, _ d: Int64 = 1) -> MediaTime { MediaTime(n, d) }

    @Test func aConstantPartAfterARampHoldsFromWhereTheRampEnds() {
        let ramp = Animation.ramp(from: 0, to: 1, over: TimeRange(start: t(1), end: t(2)))
        let joined = Animation.concatenation([ramp, .constant(1), .constant(1)])
        #expect(joined.isOrdered)
        #expect(joined.value(at: t(3, 2)) == 0.5)
        #expect(joined.value(at: t(5)) == 1)

        let step = Animation.concatenation([ramp, .constant(0.25)])
        #expect(step.isOrdered)
        #expect(step.value(at: t(3, 2)) == 0.5)
        #expect(step.value(at: t(2)) == 0.25)
        #expect(step.value(at: t(9)) == 0.25)
    }

    @Test func constantPartsAloneStayConstant() {
        #expect(Animation.concatenation([.constant(1), .constant(1)]) == .constant(1))
        let first = Animation.concatenation([.constant(0.5), .ramp(from: 0.5, to: 1, over: TimeRange(start: t(4), end: t(5)))])
        #expect(first.isOrdered && first.value(at: t(2)) == 0.5 && first.value(at: t(6)) == 1)
    }
}
