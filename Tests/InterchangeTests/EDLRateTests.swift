import Interchange
import MediaTime
import Testing

/// An EDL says its rate only by its timecodes: drop-frame exists at 29.97 and 59.94 fps alone,
/// so `FCM: DROP FRAME` is read at 29.97 fps, or 59.94 when a frame number above 29 shows it,
/// with a warning that says so; `--fps` still decides when given; anything else is 24 fps.
@Suite struct EDLRateTests {
    static let dropFrame29 = "FCM: DROP FRAME\n001  CAM_A  V  C  01:00:00;02 01:00:10;04 00:00:00;00 00:00:10;02\n"
    static let dropFrame59 = "FCM: DROP FRAME\n001  CAM_A  V  C  01:00:00;02 01:00:10;44 00:00:00;00 00:00:10;42\n"

    @Test func aDropFrameEDLIsReadAtTheRateItImplies() throws {
        let (timeline, warnings) = try EDLReader.read(text: Self.dropFrame29, file: "df.edl", rate: nil)
        #expect(timeline.rate == Rational(30000, 1001) && timeline.dropFrame)
        #expect(warnings.map(\.description).contains("df.edl:1: warning: the EDL is drop-frame: read at 29.97 fps unless another frame rate is given"),
                "\(warnings)")
        #expect(warnings.first { $0.message.hasPrefix("the EDL is drop-frame") }?.remedy == [.frameRate])
        let (fast, _) = try EDLReader.read(text: Self.dropFrame59, file: "df.edl", rate: nil)
        #expect(fast.rate == Rational(60000, 1001))
    }

    @Test func aGivenRateDecides() throws {
        let (timeline, warnings) = try EDLReader.read(text: Self.dropFrame59, file: "df.edl", rate: Rational(60000, 1001))
        #expect(timeline.rate == Rational(60000, 1001) && warnings.isEmpty)
        let plain = "FCM: NON-DROP FRAME\n001  CAM_A  V  C  01:00:00:02 01:00:10:04 00:00:00:00 00:00:10:02\n"
        #expect(try EDLReader.read(text: plain, file: "ndf.edl", rate: nil).0.rate == Rational(24))
    }
}
