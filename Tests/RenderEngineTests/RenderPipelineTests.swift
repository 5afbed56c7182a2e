import CompositionGraph
import Foundation
import MediaTime
import Testing
@testable import RenderEngine
import TestSupport

@Suite struct RenderPipelineTests {
    func run(_ graph: CompositionGraph, range: TimeRange? = nil, sink: RecordingSink = RecordingSink(),
             cancelAfter: Int64? = nil) throws -> RecordingSink {
        let size = graph.videoComposition.renderSize
        let config = RenderPipeline.Configuration(graph: graph, range: range ?? TimeRange(start: .zero, duration: graph.duration))
        let access = MediaAccess(openVideo: { _ in CountingVideoSource() },
                                 openAudio: { _, _ in RampSource(channels: 2) { _ in 0.25 } })
        let pipeline = RenderPipeline(config, access: access, sink: sink, overlays: nil)
        try pipeline.run { done in if let cancelAfter, done == cancelAfter { pipeline.cancel() } }
        return sink
    }

    @Test func everyFrameAndSampleOfTheTimelineIsWrittenInOrder() throws {
        let sink = try run(crossfadeGraph())
        #expect(sink.frames.map(\.index) == Array(0..<150))
        #expect(sink.audio.count == 5 * 48000 * 2)
        #expect(sink.finished)
        // Frame 15 (0.5 s) shows A at source 1.5 s: its frame 37 at 25 fps.
        #expect(sink.frames[15].centre == 16 + 37)
        // Frame 75 (2.5 s) is the crossfade's middle: A at 3.5 s (frame 87) and B at 0.5 s (frame 12), half each.
        let a: Int = 103, b: Int = 28
        let mid: Int = a + (((b - a) * 128 + 128) >> 8)
        #expect(Int(sink.frames[75].centre) == mid)
        // Audio: 0.25 from one clip, both halves of the crossfade sum to 0.25 too.
        #expect(sink.audio[2 * 48000 * 2] == 0.25)
        #expect(abs(sink.audio[Int(2.5 * 48000) * 2] - 0.25) < 1e-6)
    }

    @Test func theOutputIsTheSameWhateverTheThreadTiming() throws {
        let fast = try run(crossfadeGraph())
        let slow = RecordingSink()
        slow.delayPerFrame = 0.002
        _ = try run(crossfadeGraph(), sink: slow)
        #expect(fast.frames.map(\.hash) == slow.frames.map(\.hash))
        #expect(fast.audio == slow.audio)
    }

    @Test func aRangeRendersOnlyThatPartStartingAtOutputFrameZero() throws {
        let sink = try run(crossfadeGraph(), range: TimeRange(start: seconds(1), end: seconds(2)))
        #expect(sink.frames.count == 30)
        #expect(sink.frames[0].index == 0)
        // Output frame 0 is timeline 1 s: A at source 2 s (frame 50).
        #expect(sink.frames[0].centre == 16 + 50)
        #expect(sink.audio.count == 48000 * 2)
    }

    @Test func cancelStopsTheRenderWithoutFinishingTheFile() throws {
        let sink = RecordingSink()
        #expect(throws: RenderError.cancelled) { try run(crossfadeGraph(), sink: sink, cancelAfter: 10) }
        #expect(!sink.finished)
        #expect(sink.frames.count < 20)
    }
}
