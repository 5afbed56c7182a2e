import Testing
@testable import MediaTime

@Suite struct MediaTimeTests {
    let ntsc = Rational(30000, 1001)

    @Test func frameTimesDoNotDriftOverADay() {
        let d = MediaTime(Rational(1001, 30000))
        let n: Int64 = 24 * 3600 * 30
        let t = MediaTime.frame(n, duration: d)
        #expect(t == MediaTime(n * 1001, 30000))
        #expect(t.frameIndex(frameDuration: d) == n)
        // Summing frame by frame lands on the same exact time.
        var sum = MediaTime.zero
        for _ in 0..<100_000 { sum += d }
        #expect(sum == MediaTime.frame(100_000, duration: d))
    }

    @Test func samplePositionsRound() {
        #expect(MediaTime(1, 3).samplePosition(rate: 48000) == 16000)
        #expect(MediaTime(Rational(1001, 30000)).samplePosition(rate: 48000) == 1602) // 1601.6
        #expect(MediaTime(Rational(1001, 30000)).samplePosition(rate: 44100) == 1471) // 1471.47
    }

    @Test(arguments: [
        ("1.5", Rational(3, 2)), ("2", Rational(2)), ("1.5s", Rational(3, 2)), ("250ms", Rational(1, 4)),
        ("12f", Rational(12 * 1001, 30000)), ("01:02.5", Rational(125, 2)), ("00:01:02.500", Rational(125, 2)),
        ("00:00:01:15", Rational(45 * 1001, 30000)), ("-1s", Rational(-1)), (" 3s ", Rational(3)), ("0.001s", Rational(1, 1000)),
        ("2.5min", Rational(150)), ("15m", Rational(900)), ("1h", Rational(3600)), ("0.01h", Rational(36)), ("-2m", Rational(-120)),
    ])
    func parsesEveryNotation(text: String, expected: Rational) throws {
        #expect(try TimeNotation.parse(text, fps: ntsc) == MediaTime(expected))
    }

    @Test(arguments: ["", "abc", "1.5x", "1:2:3:4:5", "00:61:00", "00:00:01:30", "1.5f", "s", "--1s", "1::2", "m", "1mm", "1hs", "1min30s"])
    func rejectsBadNotation(text: String) {
        #expect(throws: TimeNotation.ParseError.self) { try TimeNotation.parse(text, fps: ntsc) }
    }

    @Test func smpteFrameBeyondRateIsExplained() {
        do {
            _ = try TimeNotation.parse("00:00:01:30", fps: Rational(30))
            Issue.record("expected an error")
        } catch {
            #expect(error.message.contains("frame 30 does not exist at 30 fps"))
        }
    }

    @Test func printsClockAndTimecode() {
        #expect(TimeNotation.clock(MediaTime(Rational(125, 2))) == "00:01:02.500")
        #expect(TimeNotation.clock(MediaTime(Rational(3661))) == "01:01:01.000")
        #expect(Timecode(rate: ntsc, dropFrame: false).string(frames: 45) == "00:00:01:15")
    }

    @Test func printsSecondsNeverAboveTheTime() throws {
        #expect(TimeNotation.seconds(MediaTime(Rational(22_047_999, 1_000_000))) == "22.047s")
        #expect(TimeNotation.seconds(MediaTime(seconds: 12)) == "12s")
        #expect(TimeNotation.seconds(MediaTime(Rational(3, 2))) == "1.5s")
        #expect(TimeNotation.seconds(MediaTime(Rational(1, 3))) == "0.333s")
        #expect(TimeNotation.seconds(MediaTime(Rational(-1, 4))) == "-0.25s")
        // What it prints parses back to at most the time.
        let t = MediaTime(Rational(22_047_999, 1_000_000))
        #expect(try TimeNotation.parse(TimeNotation.seconds(t), fps: Rational(30)) <= t)
    }

    @Test func mappingThroughSpeed() {
        let m = TimeMapping(source: TimeRange(start: MediaTime(seconds: 4), duration: MediaTime(seconds: 10)),
                            target: TimeRange(start: MediaTime(seconds: 1), duration: MediaTime(seconds: 5)))
        #expect(m.speed == Rational(2))
        #expect(m.sourceTime(at: MediaTime(seconds: 2)) == MediaTime(seconds: 6))
        #expect(m.targetTime(at: MediaTime(seconds: 6)) == MediaTime(seconds: 2))
    }

    @Test func rangesIntersect() {
        let a = TimeRange(start: .zero, duration: MediaTime(seconds: 10))
        let b = TimeRange(start: MediaTime(seconds: 9), duration: MediaTime(seconds: 11))
        #expect(a.intersection(b) == TimeRange(start: MediaTime(seconds: 9), end: MediaTime(seconds: 10)))
        #expect(a.contains(.zero) && !a.contains(MediaTime(seconds: 10)))
    }
}
