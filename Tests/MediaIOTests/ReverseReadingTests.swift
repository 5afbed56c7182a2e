import Foundation
@testable import MediaIO
import MediaTime
import Testing
import TestSupport

/// Reading a file backwards, frame by frame (a reversed clip): every frame exact, each GOP
/// decoded once, at most `RewoundFrames.capacity` frames kept.
@Suite struct ReverseReadingTests {
    /// 3 s at 25 fps, a keyframe every 12 frames, B-frames.
    static let clip = NumberedClip.h264("nrev.mp4", rate: "25", extra: ["-g", "12", "-keyint_min", "12", "-sc_threshold", "0"])

    @Test func readingBackwardsShowsEveryFrameAndSeeksOncePerGOP() throws {
        let path = try Self.clip.make()
        let times = try ffprobeFrameTimes(path)
        #expect(times.count == 75)
        let reader = try VideoReader(path: path)
        for n in stride(from: times.count - 1, through: 0, by: -1) {
            let frame = try reader.frame(at: times[n])
            #expect(FrameNumberPattern.number(in: frame) == n, "frame \(n)")
            #expect(frame.time == times[n])
        }
        // 75 frames in GOPs of 12: 7 GOPs, one seek each (the first request seeks too).
        #expect(reader.seekCount <= 8, "\(reader.seekCount) seeks")
    }

    @Test func backwardsBetweenFrameTimesAndForwardAgainStayExact() throws {
        let path = try Self.clip.make()
        let times = try ffprobeFrameTimes(path)
        let reader = try VideoReader(path: path)
        // Reversed at 25 fps sampled at the middle of each output frame, then forward again.
        var requests = stride(from: 74, through: 0, by: -1).map { times[$0] + MediaTime(1, 50) }
        requests += stride(from: 0, to: 75, by: 3).map { times[$0] }
        for t in requests {
            #expect(FrameNumberPattern.number(in: try reader.frame(at: t)) == expectedFrame(at: t, times: times), "at \(t)")
        }
    }
}
