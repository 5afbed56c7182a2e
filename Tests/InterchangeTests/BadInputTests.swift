import Foundation
import Interchange
import MediaTime
import Testing
import TestSupport

/// Broken, hostile and huge timelines: a clear error with its line (EDL) or JSON path (OTIO),
/// never a crash, in bounded time.
@Suite struct BadInputTests {
    func edlError(_ text: String, rate: Rational = Rational(24)) -> InterchangeError? {
        do { _ = try EDLReader.read(text: text, file: "cut.edl", rate: rate) } catch { return error }
        return nil
    }

    func otioError(_ text: String) -> InterchangeError? {
        do { _ = try OTIOReader.read(text: text, file: "cut.otio") } catch { return error }
        return nil
    }

    static let event = "001  AX       V     C        01:00:00:00 01:00:01:00 00:00:00:00 00:00:01:00\n"

    @Test func truncatedEventLine() throws {
        let error = try #require(edlError("TITLE: x\n" + Self.event + "002  AX       V     C        01:00:01:00 01:0"))
        #expect(error.place?.line == 3)
        #expect(error.message.contains("event 002 has 6 fields"))
        #expect(error.hint?.contains("truncated") == true)
    }

    @Test(arguments: ["99:99:99:99", "01:00:00:24", "01:00:xx:00", "01:00:00:00:00"])
    func absurdTimecodes(timecode: String) throws {
        let error = try #require(edlError("001  AX  V  C  \(timecode) 01:00:01:00 00:00:00:00 00:00:01:00\n"))
        #expect(error.place?.line == 1)
        #expect(error.message.hasPrefix("event 001: '\(timecode)'"))
    }

    @Test func frameBeyondTheRateNamesTheOption() throws {
        let error = try #require(edlError("001  AX  V  C  01:00:00:24 01:00:01:00 00:00:00:00 00:00:01:01\n"))
        #expect(error.message.contains("frame 24 does not exist at 24 fps"))
        #expect(error.remedy == [.frameRate] && error.hint?.contains("the rate the EDL was made at") == true)
        #expect(edlError("001  AX  V  C  01:00:00:24 01:00:01:00 00:00:00:00 00:00:01:01\n", rate: Rational(25)) == nil)
    }

    @Test func backwardsEventAndNoEvents() throws {
        #expect(try #require(edlError("001  AX  V  C  01:00:02:00 01:00:01:00 00:00:00:00 00:00:01:00\n")).message.contains("ends before it starts"))
        #expect(try #require(edlError("TITLE: nothing\n\n")).message.contains("no events"))
        #expect(try #require(edlError("FCM: DROP FRAME\n" + Self.event)).message.contains("drop-frame"))
    }

    @Test func hundredThousandEventsAreRefusedAtTheFirstOneTooMany() throws {
        var text = "TITLE: huge\n"
        text.reserveCapacity(100_000 * 90)
        let timecode = Timecode(rate: Rational(24), dropFrame: false)
        for n in 0..<100_000 {
            text += "\(n + 1)  AX  V  C  \(timecode.string(frames: 86_400)) \(timecode.string(frames: 86_424)) \(timecode.string(frames: Int64(n) * 24)) \(timecode.string(frames: Int64(n) * 24 + 24))\n"
        }
        var refusal: InterchangeError?
        let cpu = threadCPUSeconds { refusal = edlError(text) }
        #expect(cpu < 10, "\(cpu) s of CPU")
        let error = try #require(refusal)
        #expect(error.place?.line == 5002)
        #expect(error.message.contains("more than 5000 events"))
    }

    static let clip = #"{"OTIO_SCHEMA": "Clip.1", "name": "a", "source_range": {"OTIO_SCHEMA": "TimeRange.1", "start_time": {"OTIO_SCHEMA": "RationalTime.1", "rate": 24, "value": 0}, "duration": {"OTIO_SCHEMA": "RationalTime.1", "rate": 24, "value": 24}}}"#

    static func timeline(_ clips: String) -> String {
        #"{"OTIO_SCHEMA": "Timeline.1", "tracks": {"OTIO_SCHEMA": "Stack.1", "children": [{"OTIO_SCHEMA": "Track.1", "kind": "Video", "children": [\#(clips)]}]}}"#
    }

    @Test func aGoodTimelineReads() throws {
        let (timeline, warnings) = try OTIOReader.read(text: Self.timeline(Self.clip), file: "cut.otio")
        #expect(timeline.tracks.first?.clipPlacements.count == 1)
        #expect(timeline.rate == Rational(24))
        #expect(warnings.isEmpty)
    }

    @Test func truncatedJSONHasItsLine() throws {
        let text = Self.timeline(Self.clip)
        let error = try #require(otioError(String(text.prefix(text.count - 40))))
        #expect(error.message.contains("unexpected end of file"))
        #expect(error.place?.line == 1)
    }

    @Test func unknownSchemaVersionHasItsPath() throws {
        let error = try #require(otioError(Self.timeline(Self.clip.replacingOccurrences(of: "Clip.1", with: "Clip.9"))))
        #expect(error.message.contains("unknown schema version Clip.9; Reel reads Clip.1–2"))
        #expect(error.place?.path == "tracks.children[0].children[0]")
        let time = try #require(otioError(Self.timeline(Self.clip.replacingOccurrences(of: "RationalTime.1", with: "RationalTime.2"))))
        #expect(time.place?.path == "tracks.children[0].children[0].source_range.start_time")
    }

    @Test func nonFiniteAndAbsurdTimesHaveTheirPath() throws {
        let nan = try #require(otioError(Self.timeline(Self.clip.replacingOccurrences(of: #""value": 24"#, with: #""value": NaN"#))))
        #expect(nan.place?.path == "tracks.children[0].children[0].source_range.duration.value")
        let huge = try #require(otioError(Self.timeline(Self.clip.replacingOccurrences(of: #""value": 24"#, with: #""value": 1e300"#))))
        #expect(huge.place?.path == "tracks.children[0].children[0].source_range.duration.value")
        let negative = try #require(otioError(Self.timeline(Self.clip.replacingOccurrences(of: #""value": 24"#, with: #""value": -24"#))))
        #expect(negative.message.contains("negative"))
    }

    @Test func notATimeline() throws {
        #expect(try #require(otioError(#"{"name": "x"}"#)).message.contains("not an OpenTimelineIO file"))
        #expect(try #require(otioError(#"[1, 2]"#)).message.contains("not an OpenTimelineIO file"))
        #expect(try #require(otioError(#"{"OTIO_SCHEMA": "Timeline.1", "tracks": {"OTIO_SCHEMA": "Stack.1", "children": [{"OTIO_SCHEMA": "Widget.1"}]}}"#))
            .message.contains("unknown schema Widget.1"))
    }

    @Test func hundredThousandClipsAreRefusedWithThePathOfTheFirstOneTooMany() throws {
        let text = Self.timeline(Array(repeating: Self.clip, count: 100_000).joined(separator: ","))
        var refusal: InterchangeError?
        let cpu = threadCPUSeconds { refusal = otioError(text) }
        #expect(cpu < 20, "\(cpu) s of CPU")
        let error = try #require(refusal)
        // 100 000 clips of this size are more than the 16 MiB an OTIO file may have, or else more clips than a project holds.
        #expect(error.message.contains("larger than 16 MiB") || error.place?.path == "tracks.children[0].children[5000]")
        let fewer = Self.timeline(Array(repeating: Self.clip, count: 5_001).joined(separator: ","))
        #expect(try #require(otioError(fewer)).place?.path == "tracks.children[0].children[5000]")
    }
}
