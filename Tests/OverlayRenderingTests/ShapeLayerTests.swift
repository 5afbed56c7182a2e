import CompositionGraph
import MediaTime
import Testing
@testable import OverlayRendering

@Suite struct ShapeLayerTests {
    let red = Color(red: 1, green: 0, blue: 0)

    @Test func rectCoversExactlyItsBoxAndLeavesTheRestUntouched() throws {
        let frame = try render([layer(solidRect(red), x: 100, y: 80, anchor: (0, 0), width: 100, height: 50)])
        var wrong: [(Int, Int)] = []
        for y in 0..<frame.height {
            for x in 0..<frame.width {
                let inside = (100..<200).contains(x) && (80..<130).contains(y)
                let expected = inside ? TestFrame.Pixel(b: 0, g: 0, r: 255, a: 255) : TestFrame.opaqueBlack
                if frame[x, y] != expected { wrong.append((x, y)) }
            }
        }
        #expect(wrong.isEmpty, "\(wrong.count) wrong pixels, first at \(wrong.first.map { "\($0)" } ?? "")")
    }

    @Test func rectOpacityScalesItsColour() throws {
        let frame = try render([layer(solidRect(red), x: 160, y: 120, width: 40, height: 40, opacity: .constant(0.5))])
        #expect(frame[160, 120].isClose(to: TestFrame.Pixel(b: 0, g: 0, r: 128, a: 255)), "got \(frame[160, 120])")
        #expect(frame.inkBounds?.x == 140..<180 && frame.inkBounds?.y == 100..<140)
    }

    @Test func colourAlphaBlendsOverTheFrame() throws {
        let halfBlue = Color(red: 0, green: 0, blue: 1, alpha: 0.25)
        let frame = try render([layer(solidRect(halfBlue), x: 160, y: 120, width: 20, height: 20)],
                               frame: TestFrame(background: TestFrame.Pixel(b: 0, g: 255, r: 0, a: 255)))
        #expect(frame[160, 120].isClose(to: TestFrame.Pixel(b: 64, g: 191, r: 0, a: 255)), "got \(frame[160, 120])")
    }

    @Test func anchorPlacesThatPointOfTheBoxOnThePosition() throws {
        let frame = try render([layer(solidRect(red), x: 200, y: 100, anchor: (1, 1), width: 60, height: 30)])
        #expect(frame.inkBounds?.x == 140..<200 && frame.inkBounds?.y == 70..<100)
    }

    @Test func quarterTurnClockwiseAboutTheTopLeftAnchor() throws {
        // 100×50 box, anchor at its top-left corner on (200, 120), turned 90° clockwise: its top
        // edge now points down and its left edge points left.
        let frame = try render([layer(solidRect(red), x: 200, y: 120, anchor: (0, 0), width: 100, height: 50,
                                      rotation: .constant(90))])
        #expect(frame.inkBounds?.x == 150..<200 && frame.inkBounds?.y == 120..<220)
        #expect(frame[175, 170].r == 255)
        #expect(frame[225, 145] == TestFrame.opaqueBlack, "where the unrotated box would be")
    }

    @Test func eighthTurnAboutTheCentreTurnsCornersOntoTheAxes() throws {
        // A 100×100 square turned 45° about its centre (160, 120): corners at 70.7 px along the axes.
        let frame = try render([layer(solidRect(red), x: 160, y: 120, width: 100, height: 100, rotation: .constant(45))])
        #expect(frame[160, 53].r == 255, "just inside the top corner")
        #expect(frame[160, 47] == TestFrame.opaqueBlack, "just outside the top corner")
        #expect(frame[227, 120].r == 255 && frame[233, 120] == TestFrame.opaqueBlack, "right corner")
        #expect(frame[113, 73] == TestFrame.opaqueBlack, "the unrotated top-left corner is now empty")
        let bounds = try #require(frame.inkBounds)
        #expect(bounds.x == 89..<231 && bounds.y == 49..<191)
    }

    @Test func scaleActsAboutTheAnchor() throws {
        let frame = try render([layer(solidRect(red), x: 100, y: 100, anchor: (0, 0), width: 20, height: 10, scale: .constant(3))])
        #expect(frame.inkBounds?.x == 100..<160 && frame.inkBounds?.y == 100..<130)
    }

    @Test func ellipseFillsItsInscribedCurveOnly() throws {
        let frame = try render([layer(.ellipse(ShapeStyle(fill: .color(red))), x: 160, y: 120, width: 100, height: 60)])
        #expect(frame[160, 120].r == 255)
        #expect(frame[112, 120].r == 255 && frame[208, 120].r == 255)
        #expect(frame[112, 92] == TestFrame.opaqueBlack, "box corner lies outside the ellipse")
        #expect(frame.inkBounds?.x == 110..<210 && frame.inkBounds?.y == 90..<150)
    }

    @Test func horizontalGradientRunsFromFirstToLastStop() throws {
        let gradient = Fill.linearGradient(angle: 0, stops: [GradientStop(offset: 0, color: .black), GradientStop(offset: 1, color: .white)])
        let frame = try render([layer(.rect(ShapeStyle(fill: gradient)), x: 0, y: 0, anchor: (0, 0), width: 256, height: 10)])
        #expect(frame[0, 5].r < 2)
        #expect(abs(Int(frame[128, 5].r) - 128) <= 1)
        #expect(frame[255, 5].r > 253)
        #expect(frame[128, 5].r == frame[128, 5].g && frame[128, 5].g == frame[128, 5].b)
    }

    @Test func verticalGradientRunsTopToBottom() throws {
        let gradient = Fill.linearGradient(angle: 90, stops: [GradientStop(offset: 0, color: red), GradientStop(offset: 1, color: Color(red: 0, green: 0, blue: 1))])
        let frame = try render([layer(.rect(ShapeStyle(fill: gradient)), x: 10, y: 10, anchor: (0, 0), width: 10, height: 200)])
        #expect(frame[15, 10].r > 250 && frame[15, 10].b < 5)
        #expect(frame[15, 209].b > 250 && frame[15, 209].r < 5)
        #expect(frame[15, 60].r > frame[15, 60].b)
    }

    @Test func strokeIsCentredOnTheOutlineOverTheFill() throws {
        let style = ShapeStyle(fill: .color(red), stroke: Stroke(color: .white, width: 10))
        let frame = try render([layer(.rect(style), x: 100, y: 100, anchor: (0, 0), width: 100, height: 60)])
        #expect(frame.inkBounds?.x == 95..<205 && frame.inkBounds?.y == 95..<165)
        #expect(frame[96, 130] == TestFrame.Pixel(b: 255, g: 255, r: 255, a: 255), "outer half of the stroke")
        #expect(frame[104, 130] == TestFrame.Pixel(b: 255, g: 255, r: 255, a: 255), "inner half covers the fill")
        #expect(frame[150, 130] == TestFrame.Pixel(b: 0, g: 0, r: 255, a: 255))
        #expect(frame[96, 96] == TestFrame.Pixel(b: 255, g: 255, r: 255, a: 255), "square corner (miter join)")
    }

    @Test func cornerRadiusRoundsTheCorners() throws {
        let style = ShapeStyle(fill: .color(red), cornerRadius: 20)
        let frame = try render([layer(.rect(style), x: 100, y: 100, anchor: (0, 0), width: 100, height: 60)])
        #expect(frame[101, 101] == TestFrame.opaqueBlack)
        #expect(frame[110, 110].r == 255)
        #expect(frame[150, 101].r == 255, "edges stay straight between the corners")
    }

    @Test func aShapeWithoutSizeIsAnError() throws {
        #expect(throws: OverlayError(.shapeNeedsSize, layerIndex: 1)) {
            try OverlayRenderer(layers: [layer(solidRect(red), x: 0, y: 0, width: 10), layer(solidRect(red), x: 0, y: 0)],
                                fonts: [], renderSize: PixelSize(width: 64, height: 64))
        }
    }
}
