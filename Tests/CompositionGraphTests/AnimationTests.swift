import CompositionGraph
import Foundation
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

    @Test(arguments: [Easing.linear, .easeInOut, .cubicBezier(0.2, 0, 0.2, 1), .hold, .family(.back, .in), .family(.elastic, .out),
                      .family(.bounce, .inOut), .family(.expo, .inOut), .steps(3)])
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

    /// easings.net's closed forms, written out again here: every named family at its three
    /// ends agrees with them to 1e-12 along the way and is exactly 0 and 1 at its keyframes.
    @Test(arguments: EasingFamily.allCases)
    func theFamiliesFollowTheirClosedForms(family: EasingFamily) throws {
        let c1 = 1.70158, c2 = c1 * 1.525, c3 = c1 + 1, c4 = 2 * Double.pi / 3, c5 = 2 * Double.pi / 4.5
        func bounceOut(_ x: Double) -> Double {
            let n1 = 7.5625, d1 = 2.75
            if x < 1 / d1 { return n1 * x * x }
            if x < 2 / d1 { return n1 * (x - 1.5 / d1) * (x - 1.5 / d1) + 0.75 }
            if x < 2.5 / d1 { return n1 * (x - 2.25 / d1) * (x - 2.25 / d1) + 0.9375 }
            return n1 * (x - 2.625 / d1) * (x - 2.625 / d1) + 0.984375
        }
        let forms: [EasingEnd: (Double) -> Double] = switch family {
        case .sine: [.in: { 1 - cos($0 * .pi / 2) }, .out: { sin($0 * .pi / 2) }, .inOut: { -(cos(.pi * $0) - 1) / 2 }]
        case .quad: [.in: { $0 * $0 }, .out: { 1 - (1 - $0) * (1 - $0) }, .inOut: { $0 < 0.5 ? 2 * $0 * $0 : 1 - pow(-2 * $0 + 2, 2) / 2 }]
        case .cubic: [.in: { pow($0, 3) }, .out: { 1 - pow(1 - $0, 3) }, .inOut: { $0 < 0.5 ? 4 * pow($0, 3) : 1 - pow(-2 * $0 + 2, 3) / 2 }]
        case .quart: [.in: { pow($0, 4) }, .out: { 1 - pow(1 - $0, 4) }, .inOut: { $0 < 0.5 ? 8 * pow($0, 4) : 1 - pow(-2 * $0 + 2, 4) / 2 }]
        case .quint: [.in: { pow($0, 5) }, .out: { 1 - pow(1 - $0, 5) }, .inOut: { $0 < 0.5 ? 16 * pow($0, 5) : 1 - pow(-2 * $0 + 2, 5) / 2 }]
        case .expo: [.in: { $0 == 0 ? 0 : pow(2, 10 * $0 - 10) }, .out: { $0 == 1 ? 1 : 1 - pow(2, -10 * $0) },
                     .inOut: { $0 == 0 ? 0 : $0 == 1 ? 1 : $0 < 0.5 ? pow(2, 20 * $0 - 10) / 2 : (2 - pow(2, -20 * $0 + 10)) / 2 }]
        case .circ: [.in: { 1 - sqrt(1 - pow($0, 2)) }, .out: { sqrt(1 - pow($0 - 1, 2)) },
                     .inOut: { $0 < 0.5 ? (1 - sqrt(1 - pow(2 * $0, 2))) / 2 : (sqrt(1 - pow(-2 * $0 + 2, 2)) + 1) / 2 }]
        case .back: [.in: { c3 * $0 * $0 * $0 - c1 * $0 * $0 }, .out: { 1 + c3 * pow($0 - 1, 3) + c1 * pow($0 - 1, 2) },
                     .inOut: { $0 < 0.5 ? (pow(2 * $0, 2) * ((c2 + 1) * 2 * $0 - c2)) / 2 : (pow(2 * $0 - 2, 2) * ((c2 + 1) * ($0 * 2 - 2) + c2) + 2) / 2 }]
        case .elastic: [.in: { $0 == 0 ? 0 : $0 == 1 ? 1 : -pow(2, 10 * $0 - 10) * sin(($0 * 10 - 10.75) * c4) },
                        .out: { $0 == 0 ? 0 : $0 == 1 ? 1 : pow(2, -10 * $0) * sin(($0 * 10 - 0.75) * c4) + 1 },
                        .inOut: { $0 == 0 ? 0 : $0 == 1 ? 1 : $0 < 0.5 ? -(pow(2, 20 * $0 - 10) * sin((20 * $0 - 11.125) * c5)) / 2
                                                                      : (pow(2, -20 * $0 + 10) * sin((20 * $0 - 11.125) * c5)) / 2 + 1 }]
        case .bounce: [.in: { 1 - bounceOut(1 - $0) }, .out: bounceOut,
                       .inOut: { $0 < 0.5 ? (1 - bounceOut(1 - 2 * $0)) / 2 : (1 + bounceOut(2 * $0 - 1)) / 2 }]
        }
        for end in EasingEnd.allCases {
            let ease = try #require(Easing(named: "ease-\(end.rawValue)-\(family.rawValue)"))
            let form = try #require(forms[end])
            #expect(ease.apply(0) == 0 && ease.apply(1) == 1, "\(ease)")
            for i in 1..<256 {
                let x = Double(i) / 256
                #expect(abs(ease.apply(x) - form(x)) < 1e-12, "ease-\(end.rawValue)-\(family.rawValue) at \(x): \(ease.apply(x)) against \(form(x))")
            }
        }
    }

    @Test func stepsJumpAtTheEndOfEachPart() {
        let steps = Easing.steps(4)
        #expect([0, 0.24, 0.25, 0.5, 0.74, 0.99, 1].map(steps.apply) == [0, 0, 0.25, 0.5, 0.5, 0.75, 1])
        #expect(steps.name == "steps(4)")
        let a = Animation(keyframes: [Keyframe(time: .zero, value: 0, ease: .steps(2)), Keyframe(time: t(1), value: 10)])
        #expect(a.value(at: t(1, 4)) == 0 && a.value(at: t(1, 2)) == 5 && a.value(at: t(1)) == 10)
    }

    /// A swing beyond the keyframes survives an instruction boundary: a 0 → 100 ramp with
    /// ease-in-back cut where it is back at 0 still dips to about −10 between the cut's two ends.
    @Test func aSlicedSwingKeepsItsDip() {
        let a = Animation(keyframes: [Keyframe(time: .zero, value: 0, ease: .family(.back, .in)), Keyframe(time: t(1), value: 100)])
        let s = a.sliced(to: TimeRange(start: .zero, end: t(5, 8)))
        #expect(abs(s.value(at: t(5, 16)) - a.value(at: t(5, 16))) < 1e-9)
        #expect(s.value(at: t(5, 16)) < -8, "\(s.value(at: t(5, 16)))")
    }
}
