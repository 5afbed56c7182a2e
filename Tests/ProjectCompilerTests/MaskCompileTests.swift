import CompositionGraph
import Foundation
import MediaTime
import ProjectCompiler
import ProjectFile
import TestSupport
import Testing

/// `mask:` compiled into the layer instructions: lengths resolved against the frame,
/// keyframes absolute, path data parsed into absolute commands, mattes timed with the clip.
@Suite struct MaskCompileTests {
    func compile(_ clips: String) throws -> CompositionGraph {
        let yaml = """
        reel: 1
        output: { size: [640, 360], fps: 25 }
        media: { a: A.mp4, logo: logo.png }
        video:
          - clips:
        \(clips)
        """
        let document = try DocumentLoader.load(text: yaml, name: MediaFactory.path("mask-compile.yaml"))
        return try ProjectPipeline.load(document, media: FakeMediaFacts.promo, fonts: FakeFonts()).graph
    }

    func masks(_ graph: CompositionGraph) -> [LayerMask] { graph.videoComposition.instructions.flatMap { $0.layers.compactMap(\.mask) } }

    @Test func rectangleLengthsAndKeyframesResolve() throws {
        let graph = try compile("""
              - { color: red, duration: 2s }
              - color: blue
                duration: 2s
                mask:
                  rect: { x: "25%", y: 10, width: [{ at: 0s, value: 100 }, { at: end, value: "50%" }], height: "50%", radius: 8 }
                  feather: 4
                  invert: true
        """)
        let mask = try #require(masks(graph).first)
        guard case .rect(let box, let radius) = mask.source else { Issue.record("not a rect: \(mask.source)"); return }
        #expect(box.x.constantValue == 160 && box.y.constantValue == 10 && box.height.constantValue == 180 && radius.constantValue == 8)
        // The clip runs from 2 s to 4 s on the timeline: keyframes are in timeline time.
        #expect(box.width.keyframes.map(\.time) == [MediaTime(seconds: 2), MediaTime(seconds: 4)])
        #expect(box.width.keyframes.map(\.value) == [100, 320])
        #expect(mask.feather.constantValue == 4 && mask.invert)
        #expect(graph.listing.contains("mask rect (160, 10) size ("), "\(graph.listing)")
    }

    @Test func pathDataBecomesAbsoluteCommands() throws {
        let graph = try compile("""
              - color: red
                duration: 1s
                mask: { path: { d: "m10,20 l 30 0 v 10 h-30 q 5 5 10 0 z", x: 5 } }
        """)
        guard case .path(let path, let x, _)? = masks(graph).first?.source else { Issue.record("no path"); return }
        #expect(x.constantValue == 5)
        // q 5 5 10 0 from (10, 30): control (15, 35), end (20, 30); as a cubic, controls 2/3 of the way.
        let k = 2.0 / 3
        let expected: [MaskPath.Command] = [.move(10, 20), .line(40, 20), .line(40, 30), .line(10, 30),
                                            .cubic(10 + k * 5, 30 + k * 5, 20 + k * -5, 30 + k * 5, 20, 30), .close]
        #expect(path.commands == expected)
    }

    @Test func matteIsTimedWithTheClip() throws {
        let graph = try compile("""
              - { color: red, duration: 1s }
              - { color: blue, duration: 2s, mask: { matte: a, from: 3s } }
              - { color: green, duration: 2s, mask: { matte: logo, mode: alpha } }
        """)
        let mattes = masks(graph).compactMap { if case .matte(let m) = $0.source { m } else { nil } }
        #expect(mattes.count == 2)
        #expect(mattes[0].media.name == "a" && mattes[0].sourceTime(at: MediaTime(seconds: 1)) == MediaTime(seconds: 3))
        #expect(mattes[0].sourceTime(at: MediaTime(5, 2)) == MediaTime(9, 2) && mattes[0].channel == .luma)
        #expect(mattes[1].media.name == "logo" && mattes[1].sourceStart == nil && mattes[1].channel == .alpha)
        #expect(graph.mediaReferences.map(\.name).contains("a"), "the matte is an input of the render")
    }

    @Test func alphaModeNeedsAlpha() throws {
        #expect {
            _ = try compile("""
                  - { color: blue, duration: 2s, mask: { matte: a, mode: alpha } }
            """)
        } throws: { error in
            "\(error)".contains("has no alpha channel")
        }
    }
}

/// Arcs (`A`) become cubics that run along the ellipse: a half circle of radius 50 from
/// (0, 100) to (100, 100) through the top, (50, 50), in two quarter-circle pieces.
@Suite struct MaskPathArcTests {
    @Test func halfCircleArcPassesThroughTheTop() throws {
        let graph = try MaskCompileTests().compile("""
              - { color: red, duration: 1s, mask: { path: "M0 100 A 50 50 0 0 1 100 100 Z" } }
        """)
        guard case .path(let path, _, _)? = MaskCompileTests().masks(graph).first?.source else { Issue.record("no path"); return }
        #expect(path.commands.count == 4, "\(path.commands)")
        guard case .cubic(_, _, _, _, let mx, let my) = path.commands[1], case .cubic(_, _, _, _, let ex, let ey) = path.commands[2] else {
            Issue.record("not two cubics: \(path.commands)"); return
        }
        #expect(abs(mx - 50) < 1e-9 && abs(my - 50) < 1e-9, "the middle of the arc: (\(mx), \(my))")
        #expect(ex == 100 && ey == 100)
    }

    @Test func arcFlagMustBeZeroOrOne() {
        #expect {
            _ = try MaskCompileTests().compile("""
                  - { color: red, duration: 1s, mask: { path: "M0 100 A 50 50 0 2 1 100 100" } }
            """)
        } throws: { error in
            "\(error)".contains("character 18: an arc flag (0 or 1) was expected, not '2'")
        }
    }
}
