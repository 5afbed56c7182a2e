import Testing
@testable import MediaTime

@Suite struct TimecodeTests {
    let ntsc30 = Rational(30000, 1001), ntsc60 = Rational(60000, 1001)

    @Test func dropFrameLabelsSkipTwoFramesAMinuteExceptEveryTenth() throws {
        let df = Timecode(rate: ntsc30, dropFrame: true)
        #expect(df.string(frames: 1799) == "00:00:59;29")
        #expect(df.string(frames: 1800) == "00:01:00;02")
        #expect(df.string(frames: 17982) == "00:10:00;00")
        #expect(df.string(frames: 107_892) == "01:00:00;00")
        #expect(try df.frames("01:00:00;00") == 107_892)
        #expect(try df.frames("00:01:00;02") == 1800)
        // One hour of 29.97 drop-frame labels is 3600 s of real time to within 3.6 ms; exactly 107892 × 1001/30000 s.
        #expect(df.time(frames: 107_892) == MediaTime(Rational(107_892 * 1001, 30000)))
    }

    @Test(arguments: [(Rational(30000, 1001), 2), (Rational(60000, 1001), 4)])
    func dropFrameRoundTripsEveryFrameOfADay(rate: Rational, dropped: Int) throws {
        let df = Timecode(rate: rate, dropFrame: true)
        let day = Int64(24 * 3600) * df.nominalRate - Int64(dropped) * 24 * 54
        for n in stride(from: Int64(0), to: day, by: 13) {
            #expect(try df.frames(df.string(frames: n)) == n)
        }
        #expect(df.string(frames: day) == "24:00:00;00")
    }

    @Test func nonDropFrameCountsAtTheNominalRate() throws {
        for (rate, text, frames) in [(Rational(24000, 1001), "01:00:00:00", Int64(86_400)), (Rational(24), "01:00:04:05", 86_501),
                                     (Rational(25), "00:00:01:24", 49), (Rational(30), "00:01:00:00", 1800), (Rational(50), "00:00:01:49", 99),
                                     (ntsc60, "00:00:01:59", 119), (Rational(60), "10:00:00:00", 2_160_000), (ntsc30, "00:01:00:00", 1800)] {
            let ndf = Timecode(rate: rate, dropFrame: false)
            #expect(try ndf.frames(text) == frames)
            #expect(ndf.string(frames: frames) == text)
        }
    }

    @Test func twoHoursAt2997LandOnExactFrames() throws {
        let ndf = Timecode(rate: ntsc30, dropFrame: false), df = Timecode(rate: ntsc30, dropFrame: true)
        let end = try df.frames("02:00:00;00")
        #expect(end == 215_784)
        #expect(df.time(frames: end) == MediaTime(Rational(215_784 * 1001, 30000)))
        #expect(ndf.frames(at: df.time(frames: end)) == end)
    }

    @Test(arguments: ["00:01:00;00", "00:01:00;01", "25:61:00:00", "00:00:00:30", "1:2:3", "aa:bb:cc:dd", "00:00:00:000"])
    func refusesLabelsThatDoNotExist(text: String) {
        #expect(throws: Timecode.ParseError.self) { try Timecode(rate: ntsc30, dropFrame: true).frames(text) }
    }
}
