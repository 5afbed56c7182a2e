import CompositionGraph
import MediaIO
import MediaTime
import Testing
@testable import RenderEngine

/// Layers that move or zoom slowly are placed to a fraction of a pixel: a pan of half a pixel
/// a frame advances every frame, instead of jumping 2 pixels every 4 frames (the even-pixel
/// grid the Y′CbCr rectangle path snaps to).
@Suite struct SubpixelMotionTests {
    static let size = PixelSize(width: 320, height: 176)

    /// A white 80×44 box on black whose centre moves from x = 100 to 130 over 2 s (30 fps).
    static func panningBox(scale: Animation = .constant(0.25)) -> CompositionGraph {
        let range = TimeRange(start: .zero, duration: MediaTime(seconds: 2))
        var transform = LayerTransform.identity(for: size)
        transform.positionX = .ramp(from: 100, to: 130, over: range)
        transform.scaleX = scale
        transform.scaleY = scale
        let segment = Segment(target: range, content: .color(.white))
        return CompositionGraph(
            composition: Composition(duration: range.duration, tracks: [CompositionTrack(id: 1, kind: .video, name: "video 1", segments: [segment])]),
            videoComposition: VideoComposition(renderSize: size, frameDuration: MediaTime(1, 30), background: .black,
                                               instructions: [VideoInstruction(timeRange: range, background: .black,
                                                                               layers: [layer(1, size: size, fit: .fill, transform: transform)])]),
            audioMix: AudioMix(tracks: []), overlays: [], fonts: [], output: EndToEnd.output(size: size))
    }

    /// The luma-weighted centre and total weight of the picture above black.
    static func centroid(_ frame: VideoFrame) -> (x: Double, mass: Double) {
        let luma = frame.packedBytes(plane: 0)
        var mass = 0.0, moment = 0.0
        for (i, y) in luma.enumerated() where y > 16 {
            let w = Double(y) - 16
            mass += w
            moment += w * (Double(i % frame.width) + 0.5)
        }
        return (moment / mass, mass)
    }

    @Test func aSlowPanAdvancesEveryFrameByItsExactDistance() throws {
        let generator = try FrameGenerator(graph: Self.panningBox())
        for n in Int64(0)..<60 {
            let x = Self.centroid(try generator.frame(n)).x
            let expected = 100 + 30 * Double(n) / 60
            #expect(abs(x - expected) < 0.05, "frame \(n): centre at \(x), expected \(expected)")
        }
    }

    @Test func aSlowZoomGrowsEveryFrame() throws {
        let zoom = Animation.ramp(from: 0.25, to: 0.3, over: TimeRange(start: .zero, duration: MediaTime(seconds: 2)))
        let generator = try FrameGenerator(graph: Self.panningBox(scale: zoom))
        var previous = 0.0
        for n in Int64(0)..<60 {
            let mass = Self.centroid(try generator.frame(n)).mass
            // Area 80×44 × k² of white (219 levels above black), k from 1 to 1.2 linearly.
            let k = 1 + 0.2 * Double(n) / 60, expected = 80 * 44 * k * k * 219
            #expect(abs(mass - expected) / expected < 0.01, "frame \(n): \(mass), expected \(expected)")
            #expect(mass > previous, "frame \(n) is not larger than frame \(n - 1)")
            previous = mass
        }
    }

    @Test func onlyMovingLayersOffTheEvenGridLeaveTheRectanglePath() throws {
        let planner = FramePlanner(graph: Self.panningBox())
        // x = 100 + 0.5 n: the box's left edge (x − 40) is even at n = 0, 4, 8…
        #expect(planner.plan(frame: 0, at: .zero).isRectangular)
        #expect(!planner.plan(frame: 1, at: MediaTime(1, 30)).isRectangular)
        #expect(!planner.plan(frame: 2, at: MediaTime(2, 30)).isRectangular)
        #expect(planner.plan(frame: 4, at: MediaTime(4, 30)).isRectangular)
        // The same box standing still at a fraction of a pixel is snapped (no motion to judder).
        var still = Self.panningBox()
        still.videoComposition.instructions[0].layers[0].transform.positionX = .constant(100.5)
        #expect(FramePlanner(graph: still).plan(frame: 1, at: MediaTime(1, 30)).isRectangular)
    }
}
