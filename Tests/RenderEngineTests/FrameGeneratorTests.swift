import CompositionGraph
import Foundation
import MediaIO
import MediaTime
import TestSupport
import Testing
@testable import RenderEngine

@Suite struct FrameGeneratorTests {
    /// Every frame of the golden short project (cuts, a 2× clip, a crossfade, a rotated clip
    /// on the general path, a fading overlay), asked in a shuffled order so the readers seek
    /// back and forth, is exactly the frame the lossless render holds.
    @Test func framesAreTheRenderedFramesInAnyOrder() throws {
        let graph = try GoldenFrameTests.project()
        let size = graph.videoComposition.renderSize
        let rendered = try EndToEnd.decodedFrames(try EndToEnd.render(graph, to: "generator-reference.mkv"), width: size.width, height: size.height)
        let generator = try FrameGenerator(graph: graph)
        #expect(generator.frameCount == Int64(rendered.count))
        var order = Array(0..<rendered.count)
        var seed: UInt64 = 7
        for i in order.indices.reversed() { // a fixed shuffle (xorshift), the same on every run
            seed ^= seed << 13; seed ^= seed >> 7; seed ^= seed << 17
            order.swapAt(i, Int(seed % UInt64(i + 1)))
        }
        var mismatched: [Int] = []
        for n in order {
            let frame = try generator.frame(Int64(n))
            #expect(frame.pixelFormat == .yuv420p && frame.width == size.width && frame.height == size.height)
            if (0..<3).flatMap({ frame.packedBytes(plane: $0) }) != rendered[n] { mismatched.append(n) }
        }
        #expect(mismatched.isEmpty, "frames that differ from the render: \(mismatched.sorted())")
    }

    /// A solid colour segment comes out as that colour in RGB (within the rounding of 8-bit
    /// limited-range Y′CbCr), at the asked size.
    @Test func imagesAreFullRangeRGBOfTheFrame() throws {
        let color = Color(red: 1, green: 0.2, blue: 0.4, alpha: 1)
        let size = PixelSize(width: 64, height: 36)
        let segment = Segment(target: TimeRange(start: .zero, duration: MediaTime(seconds: 1)), content: .color(color))
        let graph = CompositionGraph(
            composition: Composition(duration: MediaTime(seconds: 1), tracks: [CompositionTrack(id: 1, kind: .video, name: "video 1", segments: [segment])]),
            videoComposition: VideoComposition(renderSize: size, frameDuration: MediaTime(1, 25), background: .black,
                                               instructions: [VideoInstruction(timeRange: segment.target, background: .black, layers: [layer(1, size: size, fit: .fill)])]),
            audioMix: AudioMix(tracks: []), overlays: [], fonts: [], output: EndToEnd.output(size: size))
        let generator = try FrameGenerator(graph: graph)
        let image = try generator.image(12, size: PixelSize(width: 32, height: 18))
        #expect(image.pixelFormat == .rgb24 && image.width == 32 && image.height == 18)
        #expect(image.time == MediaTime(12, 25))
        let pixels = image.packedBytes(plane: 0)
        for (i, value) in pixels.enumerated() {
            let expected = [255, 51, 102][i % 3]
            #expect(abs(Int(value) - expected) <= 2, "sample \(i): \(value), expected \(expected)")
            if abs(Int(value) - expected) > 2 { break }
        }
    }

    /// The preview's hand-over: a generator made after another (after an edit) takes that
    /// one's open readers of files in the same state, and its frames are still exactly those
    /// of a generator of its own.
    @Test func readersHandedOverGiveTheSameFrames() throws {
        let graph = try GoldenFrameTests.project()
        let shelf = ReaderShelf()
        let first = try FrameGenerator(graph: graph, shelf: shelf)
        _ = try first.frame(40)
        first.shelveReaders()
        var edited = graph
        edited.overlays = []
        let second = try FrameGenerator(graph: edited, shelf: shelf)
        let alone = try FrameGenerator(graph: edited)
        for n: Int64 in [40, 41, 12, 74] {
            let planes = { (frame: VideoFrame) in (0..<3).flatMap { frame.packedBytes(plane: $0) } }
            #expect(planes(try second.frame(n)) == planes(try alone.frame(n)), "frame \(n)")
        }
    }

    /// Readers go to the next pool only for the same file in the same state on the same track.
    @Test func onlyReadersOfUnchangedFilesAreHandedOver() throws {
        let ref = MediaReference.fake("a", path: "/media/a.mp4", kind: .video)
        var changed = ref
        changed.facts.stamp = FileStamp(size: 1, modified: 1)
        let track = CompositionTrack(id: 1, kind: .video, name: "video 1", segments: [
            Segment(target: TimeRange(start: .zero, duration: MediaTime(seconds: 1)), content: .media(ref, sourceRange: TimeRange(start: .zero, duration: MediaTime(seconds: 1))))])
        let composition = Composition(duration: MediaTime(seconds: 1), tracks: [track])
        let shelf = ReaderShelf()
        var opened = 0
        let open: (MediaReference) throws -> VideoFrameSource = { _ in opened += 1; return CountingVideoSource() }
        let first = VideoSourcePool(composition: composition, shelf: shelf, open: open)
        let source = try first.source(ref, trackID: 1)
        first.shelve()
        let second = VideoSourcePool(composition: composition, shelf: shelf, open: open)
        #expect(try second.source(ref, trackID: 2) !== source) // another track: its own reader
        #expect(try second.source(ref, trackID: 1) === source)
        #expect(opened == 2)
        second.shelve()
        let third = VideoSourcePool(composition: composition, shelf: shelf, open: open)
        #expect(try third.source(changed, trackID: 1) !== source)
        #expect(opened == 3)
    }

    @Test func timesMapToTheFrameOnScreen() throws {
        let generator = try FrameGenerator(graph: try GoldenFrameTests.project())
        let duration = generator.graph.duration
        #expect(try generator.frameIndex(at: .zero) == 0)
        #expect(try generator.frameIndex(at: MediaTime(1, 30)) == 1)
        #expect(try generator.frameIndex(at: MediaTime(59, 1800)) == 0) // just before frame 1
        #expect(try generator.frameIndex(at: duration - MediaTime(1, 1000)) == generator.frameCount - 1)
        #expect(throws: RenderError.self) { try generator.frameIndex(at: duration) }
        #expect(throws: RenderError.self) { try generator.frameIndex(at: MediaTime(-1, 30)) }
    }

    @Test func thumbnailSpacing() throws {
        let generator = try FrameGenerator(graph: try GoldenFrameTests.project()) // 2.5 s at 30 fps
        #expect(generator.frames(.every(MediaTime(seconds: 1))) == [0, 30, 60])
        #expect(generator.frames(.every(MediaTime(1, 2))) == [0, 15, 30, 45, 60])
        // The middle of each fifth (0.25 s, 0.75 s…), and never a frame twice.
        #expect(generator.frames(.count(5)) == [7, 22, 37, 52, 67])
        #expect(generator.frames(.count(1000)) == Array(0..<75))
        #expect(generator.caption(ofFrame: 45) == "00:00:01.500  #45")
    }
}
