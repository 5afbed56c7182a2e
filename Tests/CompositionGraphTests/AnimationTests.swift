import CompositionGraph
import MediaTime
import Testing

@Suite struct AnimationTests {
    func t(_ n: Int64, _ d: Int64 = 1) -> MediaTime { MediaTime(n, d) }

    @Test func holdsOutsideItsKeyframes() {
        let a = Animation.ramp(from: 0, to: 1, over: TimeRange(start: t(1), end: t(3)))
        #expect(a.value(at: .zero) == 0)
        #expect(a.value(at: t(2)) == 0.5)
        #expect(a.value(at: t(5)) == 1)
    }

    @Test(arguments: [Easing.linear, .easeIn, .easeOut, .easeInOut, .cubicBezier(0.1, 0.7, 0.3, 1)])
    func easingsRunFromZeroToOneMonotonically(ease: Easing) {
        #expect(ease.apply(0) == 0 || abs(ease.apply(0)) < 1e-9)
        #expect(abs(ease.apply(1) - 1) < 1e-9)
        var last = -1.0
        for i in 0...100 {
            let v = ease.apply(Double(i) / 100)
            #expect(v >= last - 1e-12)
            last = v
        }
    }

    @Test func easeInStartsSlowAndEaseOutStartsFast() {
        #expect(Easing.easeIn.apply(0.25) < 0.25)
        #expect(Easing.easeOut.apply(0.25) > 0.25)
        #expect(abs(Easing.easeInOut.apply(0.5) - 0.5) < 1e-9)
    }

    @Test func holdJumpsAtTheNextKeyframe() {
        let a = Animation(keyframes: [Keyframe(time: .zero, value: 2, ease: .hold), Keyframe(time: t(1), value: 5)])
        #expect(a.value(at: t(999, 1000)) == 2)
        #expect(a.value(at: t(1)) == 5)
    }

    @Test func aStepTakesTheLaterKeyframe() {
        let a = Animation(keyframes: [Keyframe(time: .zero, value: 0), Keyframe(time: t(1), value: 1), Keyframe(time: t(1), value: 7), Keyframe(time: t(2), value: 9)])
        #expect(a.value(at: t(1)) == 7)
        #expect(a.value(at: t(3, 2)) == 8)
    }

    @Test(arguments: [Easing.linear, .easeInOut, .cubicBezier(0.2, 0, 0.2, 1), .hold])
    func slicingKeepsTheCurve(ease: Easing) {
        let a = Animation(keyframes: [Keyframe(time: .zero, value: 10, ease: ease), Keyframe(time: t(4), value: 30, ease: .easeOut), Keyframe(time: t(6), value: 0)])
        for range in [TimeRange(start: t(1), end: t(3)), TimeRange(start: t(3), end: t(5)), TimeRange(start: t(5, 2), end: t(7)), TimeRange(start: t(-1), end: t(1))] {
            let s = a.sliced(to: range)
            #expect(s.isInside(range))
            var time = range.start
            while time <= range.end {
                #expect(abs(s.value(at: time) - a.value(at: time)) < 1e-9, "at \(time) in \(range)")
                time += t(1, 8)
            }
        }
    }

    @Test func concatenationHoldsBetweenParts() {
        let first = Animation.ramp(from: 0, to: 1, over: TimeRange(start: .zero, end: t(1)))
        let second = Animation.ramp(from: 0.5, to: 0, over: TimeRange(start: t(2), end: t(3)))
        let joined = Animation.concatenation([first, second])
        #expect(joined.value(at: t(1, 2)) == 0.5)
        #expect(joined.value(at: t(3, 2)) == 1)
        #expect(joined.value(at: t(5, 2)) == 0.25)
    }
}
