import CompositionGraph
import MediaTime
import Testing
@testable import TimelinePage
import TestSupport

/// Time → place on the page: exact fractions of the duration, written with four decimals.
@Suite struct LayoutTests {
    let scale = TimelineScale(duration: seconds(21), minimumWidth: 1200)

    @Test func aSegmentFromTenToTwentyOneSecondsOnATwentyOneSecondTimeline() {
        #expect(scale.position(seconds(10)).description == "47.6190")
        #expect(scale.position(seconds(21)).description == "100.0000")
        #expect(scale.boxStyle(range(seconds(10), seconds(21))) == "left:47.6190%;width:52.3810%")
        #expect(scale.boxStyle(range(.zero, seconds(10))) == "left:0.0000%;width:47.6190%")
    }

    @Test func theSameBoxIsWrittenInThePage() {
        let segment = clip(video("b"), at: range(seconds(10), seconds(21)), from: .zero)
        let g = graph(duration: seconds(21), tracks: [CompositionTrack(id: 1, kind: .video, name: "v", segments: [segment])])
        let page = TimelinePage.html(for: g, title: "t.yaml") { _, _ in nil }
        #expect(page.contains("style=\"left:47.6190%;width:52.3810%\""))
    }

    @Test func adjacentBoxesShareTheirEdgeExactly() {
        // Thirds do not round to the same decimals, but a box ends where the next one starts.
        let thirds = TimelineScale(duration: seconds(3), minimumWidth: 1200)
        #expect(thirds.boxStyle(range(.zero, seconds(1))) == "left:0.0000%;width:33.3333%")
        #expect(thirds.boxStyle(range(seconds(1), seconds(2))) == "left:33.3333%;width:33.3334%")
        #expect(thirds.boxStyle(range(seconds(2), seconds(3))) == "left:66.6667%;width:33.3333%")
    }

    @Test func timesAreExactAtVideoRatesAndClampedToTheTimeline() {
        let hour = TimelineScale(duration: seconds(3600), minimumWidth: 1200)
        // Frame 1 of 29.97 fps: 1001/30000 s of an hour.
        #expect(hour.position(seconds(1001, 30000)).description == "0.0009")
        #expect(hour.position(seconds(1800)).description == "50.0000")
        #expect(hour.position(seconds(-1)).description == "0.0000")
        #expect(hour.position(seconds(4000)).description == "100.0000")
    }

    @Test func decimalsRoundHalvesAwayFromZero() {
        #expect(Decimal.fixed(Decimal.units(Rational(1, 8), places: 2), places: 2) == "0.13")
        #expect(Decimal.fixed(Decimal.units(Rational(-1, 8), places: 2), places: 2) == "-0.13")
        #expect(Decimal.short(Rational(30000, 1001)) == "29.97")
        #expect(Decimal.short(Rational(2)) == "2")
        #expect(Decimal.short(Rational(1, 2)) == "0.5")
    }

    @Test func theTimeAreaGrowsSoThatTheMedianClipIsReadable() {
        // Short timelines keep the base width; 200 clips in 30 minutes get 110 px a clip.
        #expect(TimelineScale(graph: crossfadeGraph()).minimumWidth == TimelineScale.baseWidth)
        #expect(TimelineScale(graph: longGraph(clips: 200, duration: seconds(1800))).minimumWidth == 200 * TimelineScale.typicalClipWidth)
        #expect(TimelineScale(graph: longGraph(clips: 20000, duration: seconds(1800))).minimumWidth == TimelineScale.maximumWidth)
    }
}

/// The ruler's step: labels about a hundred pixels apart or more, at round clock values.
@Suite struct RulerTests {
    func step(_ duration: MediaTime, width: Int = 1200) -> Rational {
        Ruler.step(pixelsPerSecond: TimelineScale(duration: duration, minimumWidth: width).pixelsPerSecond).step
    }

    @Test func stepsForShortMediumAndLongTimelines() {
        #expect(step(seconds(5)) == Rational(1, 2))
        #expect(step(seconds(60)) == Rational(5))
        #expect(step(seconds(1800)) == Rational(300))
        // The same 30 minutes with 200 clips is 22000 px wide: a label every 10 s.
        let long = TimelineScale(graph: longGraph(clips: 200, duration: seconds(1800)))
        #expect(Ruler.step(pixelsPerSecond: long.pixelsPerSecond).step == Rational(10))
    }

    @Test func aFiveSecondTimelineHasElevenLabelsAndMinorTicksBetween() {
        let ticks = Ruler.ticks(TimelineScale(duration: seconds(5), minimumWidth: 1200))
        #expect(ticks.count == 51)
        #expect(ticks.filter(\.isMajor).map(\.time) == (0...10).map { seconds(Int64($0), 2) })
        #expect(ticks[1] == Ruler.Tick(time: seconds(1, 10), isMajor: false))
    }

    @Test func labelsAreClockTimes() {
        let page = TimelinePage.html(for: graph(duration: seconds(60), tracks: []), title: "t") { _, _ in nil }
        #expect(page.contains("<span class=\"tick major\" style=\"left:50.0000%\">00:00:30.000</span>"))
        #expect(page.contains("ticks every 5 s"))
    }

    @Test func timelinesBeyondTheLastStepGetWholeDays() {
        #expect(Ruler.step(pixelsPerSecond: Rational(1, 100_000)).step == Rational(9_676_800))
    }
}
