import CompositionGraph
import Foundation
import MediaTime
import ProjectCompiler
import ProjectFile
import TestSupport
import Testing

/// Relative units, length expressions and anchored positions compiled into the graph of each
/// rendition: one design, every cut, every length exact.
@Suite struct LayoutUnitsTests {
    static let renditions = """
    renditions:
      wide: {}
      square: { size: [1080, 1080] }
      tall: { size: [1080, 1920] }
    """

    func graph(_ body: String, rendition: String? = nil, vars: [VarOverride] = []) throws -> CompositionGraph {
        let yaml = """
        reel: 1
        output: { size: [1920, 1080], fps: 25, duration: 2s }
        \(Self.renditions)
        media: { a: A.mp4 }
        \(body)
        """
        let document = try DocumentLoader.load(text: yaml, name: MediaFactory.path("layout-units.yaml"))
        return try ProjectPipeline.load(document, overrides: vars, rendition: rendition, media: FakeMediaFacts.promo, fonts: FakeFonts()).graph
    }

    struct Frame: Sendable, CustomStringConvertible {
        let name: String, w: Int64, h: Int64
        var description: String { name }
    }

    static let frames = [Frame(name: "wide", w: 1920, h: 1080), Frame(name: "square", w: 1080, h: 1080), Frame(name: "tall", w: 1080, h: 1920)]

    /// The pixels an exact value stands for (what the test expects, worked out here in rationals).
    func px(_ r: Rational) -> Double { r.doubleValue }
    func px(_ n: Int64, _ d: Int64 = 1) -> Double { Rational(n, d).doubleValue }

    @Test(arguments: frames)
    func everyUnitIsResolvedAgainstTheRenditionsFrame(frame: Frame) throws {
        let g = try graph("""
        vars: { pad: 48px }
        overlays:
          - rect: true
            fill: white
            size: ["50vmin", "10vh + 1vmax"]
            position: ["25vw", "(50% - 10px) / 2"]
            corner_radius: "2vmin"
          - text: Hi
            style: { size: "5vmin", box_width: "100vw - 2 * {{ pad }}", box_height: "20%", letter_spacing: "0.1vw",
                     shadow: { offset: ["1vw", "-1vh"], blur: "1vmax / 4" }, stroke: { color: black, width: "0.5vmin" },
                     background: { color: black, padding: "{{ pad }} / 2", corner_radius: "1vmin + 2px" } }
        """, rendition: frame.name)
        let (w, h, short, long) = (frame.w, frame.h, min(frame.w, frame.h), max(frame.w, frame.h))
        let rect = g.overlays[0]
        #expect(rect.width == px(short, 2) && rect.height == px(Rational(h, 10) + Rational(long, 100)))
        #expect(rect.positionX.constantValue == px(w, 4) && rect.positionY.constantValue == px((Rational(h, 2) - Rational(10)) / Rational(2)))
        guard case .rect(let shape) = rect.content else { Issue.record("not a rect"); return }
        #expect(shape.cornerRadius == px(short, 50))
        let style = try #require(g.overlays[1].content.textStyle)
        #expect(style.size == px(short, 20) && style.boxWidth == px(w - 96) && style.boxHeight == px(h, 5) && style.letterSpacing == px(w, 1000))
        #expect(style.shadow?.offsetX == px(w, 100) && style.shadow?.offsetY == px(-h, 100) && style.shadow?.blur == px(long, 400))
        #expect(style.stroke?.width == px(short, 200))
        #expect(style.background?.padding == 24 && style.background?.cornerRadius == px(Rational(short, 100) + Rational(2)))
    }

    @Test(arguments: frames)
    func anchoredPositionsPutTheLayersOwnCornerThere(frame: Frame) throws {
        let g = try graph("""
        overlays:
          - { rect: true, fill: white, size: ["50vmin", "50vmin"], position: { from: bottom-right, offset: ["-24px", "-2vh"] } }
          - { rect: true, fill: white, size: [10, 10], position: { from: top } }
          - { rect: true, fill: white, size: [10, 10], position: { from: left, offset: ["5%", 0] }, anchor: [0.5, 0.5] }
        video:
          - clips:
              - { media: a, duration: 2s, transform: { position: { from: top-left, offset: ["8vmin", "8vmin"] } } }
        """, rendition: frame.name)
        let corner = g.overlays[0]
        #expect(corner.positionX.constantValue == px(frame.w - 24) && corner.positionY.constantValue == px(Rational(frame.h) - Rational(frame.h, 50)))
        #expect(corner.anchorX.constantValue == 1 && corner.anchorY.constantValue == 1)
        let top = g.overlays[1]
        #expect(top.positionX.constantValue == px(frame.w, 2) && top.positionY.constantValue == 0 && top.anchorY.constantValue == 0)
        // anchor: given, it wins over the named point's.
        let left = g.overlays[2]
        #expect(left.positionX.constantValue == px(frame.w, 20) && left.positionY.constantValue == px(frame.h, 2))
        #expect(left.anchorX.constantValue == 0.5 && left.anchorY.constantValue == 0.5)
        let clip = try #require(g.videoComposition.instructions.first?.layers.first?.transform)
        let inset = px(min(frame.w, frame.h) * 8, 100)
        #expect(clip.positionX.constantValue == inset && clip.positionY.constantValue == inset)
        #expect(clip.anchorX.constantValue == 0 && clip.anchorY.constantValue == 0)
    }

    @Test func keyframedPositionsAndOffsetsStillMove() throws {
        let g = try graph("""
        overlays:
          - rect: true
            size: [10, 10]
            position: [{ at: 0s, value: ["10vw", "50%"] }, { at: 1s, value: ["90vw", "50%"] }]
          - rect: true
            size: [10, 10]
            position: { from: bottom-left, offset: [{ at: 0s, value: [0, 0] }, { at: 1s, value: ["10vw", "-10vh"] }] }
        """)
        #expect(g.overlays[0].positionX.keyframes.map(\.value) == [192, 1728])
        #expect(g.overlays[1].positionX.keyframes.map(\.value) == [0, 192])
        #expect(g.overlays[1].positionY.keyframes.map(\.value) == [1080, 972])
        #expect(g.overlays[1].positionY.keyframes.map(\.time) == [.zero, MediaTime(seconds: 1)])
    }

    @Test func aThirdOfTheFrameIsExact() throws {
        // In Double, 100 / 3 × 1920 / 100 is 640.0000000000001: here every step is a rational.
        let g = try graph("""
        overlays:
          - { rect: true, size: ["100vw / 3", "100vh / 3"], position: ["100vw / 3 + 100vw / 3", "(100% - 1px) / 3"] }
        """)
        #expect(g.overlays[0].width == 640 && g.overlays[0].height == 360)
        #expect(g.overlays[0].positionX.constantValue == 1280)
        #expect(g.overlays[0].positionY.constantValue == Rational(1079, 3).doubleValue)
    }

    @Test func aVarBringsANumberOrALengthIntoAnExpression() throws {
        let body = """
        vars: { pad: 24, inset: "2vmin + 4px" }
        overlays:
          - { rect: true, size: ["{{ pad }} * 2", "{{ inset }} * 2"] }
        """
        let wide = try graph(body)
        #expect(wide.overlays[0].width == 48)
        // The var's text is one term: (2vmin + 4px) * 2, not 2vmin + 8px.
        #expect(wide.overlays[0].height == px(256, 5))
        let given = try graph(body, rendition: "tall", vars: [VarOverride(name: "inset", input: .text("1vh"), location: .commandLine("--set"))])
        #expect(given.overlays[0].height == px(192, 5))
    }

    @Test func masksCropsWatermarksAndCaptionsTakeUnits() throws {
        let g = try graph("""
        video:
          - clips:
              - media: a
                duration: 2s
                crop: { left: "10% + 8px" }
                mask: { rect: { x: "5vw", y: "5vh", width: "90vw", height: "100vh - 10vh", radius: "1vmin" }, feather: "0.5vmin" }
        overlays:
          - { rect: true, size: [10, 10], watermark: { corner: bottom-right, margin: "2vmin", width: "10vw" } }
        captions:
          - cues: [{ at: 0s, duration: 1s, text: Hello }]
            style: { size: "4vmin", margin: "3vmin", position: { from: bottom-left, offset: ["5vw", "-5vh"] } }
        """, rendition: "tall")
        let layer = try #require(g.videoComposition.instructions.first?.layers.first)
        // 10 % of the 1920-wide source plus 8 of its pixels, as a fraction of its width.
        #expect(layer.crop.left.constantValue == (192.0 + 8) / 1920)
        guard case .rect(let box, let radius)? = layer.mask?.source else { Issue.record("no rect mask"); return }
        #expect(box.x.constantValue == 54 && box.y.constantValue == 96 && box.width.constantValue == 972 && box.height.constantValue == 1728)
        #expect(radius.constantValue == px(54, 5) && layer.mask?.feather.constantValue == px(27, 5))
        let mark = g.overlays[0]
        #expect(mark.positionX.constantValue == 1080 - px(108, 5) && mark.positionY.constantValue == 1920 - px(108, 5) && mark.width == 108)
        let caption = g.overlays[1]
        #expect(caption.content.textStyle?.size == px(216, 5))
        #expect(caption.positionX.constantValue == 54 && caption.positionY.constantValue == 1920 - 96)
        #expect(caption.anchorX.constantValue == 0 && caption.anchorY.constantValue == 1)
    }
}
