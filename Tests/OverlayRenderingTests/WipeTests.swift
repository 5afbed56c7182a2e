import CompositionGraph
import MediaTime
import Testing
@testable import OverlayRendering
import TestSupport

/// A wipe (`RevealBox`) cuts a layer's ink between moving lines that stay with the layer.
@Suite struct WipeTests {
    /// The right edge sweeps linearly from the ink's left (0 s) to its right (2 s).
    let sweepingRight = RevealBox(left: .constant(0), top: .constant(0),
                                  right: Animation(keyframes: [Keyframe(time: .zero, value: 0), Keyframe(time: seconds(2), value: 1)]),
                                  bottom: .constant(1))

    /// A white 100×40 rectangle centred at (160, 120), wiped.
    func wiped(_ reveal: RevealBox, rotation: Double = 0) -> OverlayLayer {
        var rect = layer(solidRect(.white), x: 160, y: 120, width: 100, height: 40, rotation: .constant(rotation))
        rect.reveal = reveal
        return rect
    }

    @Test func halfWayTheEdgeIsHalfWayAcrossTheInk() throws {
        let frame = try render([wiped(sweepingRight)], at: seconds(1))
        // The rectangle spans x 110…210: its left half (to x 160) shows.
        #expect(frame[111, 120].r == 255 && frame[159, 120].r == 255)
        #expect(frame[160, 120] == TestFrame.opaqueBlack && frame[209, 120] == TestFrame.opaqueBlack)
        #expect(frame[159, 101].r == 255 && frame[159, 138].r == 255, "the cut spans the whole height")
    }

    @Test func theEdgeIsAntialiasedBetweenPixels() throws {
        // At 1.25 s the edge is at 62.5 % of 100 px: x = 172.5, half over pixel 172.
        let frame = try render([wiped(sweepingRight)], at: seconds(5, 4))
        #expect(frame[171, 120].r == 255)
        #expect(abs(Int(frame[172, 120].r) - 128) <= 1, "\(frame[172, 120])")
        #expect(frame[173, 120] == TestFrame.opaqueBlack)
    }

    @Test func theCutTurnsWithTheLayer() throws {
        // Turned a quarter clockwise, the box's x axis points down: its left half is the upper half on screen (y 70…120).
        let frame = try render([wiped(sweepingRight, rotation: 90)], at: seconds(1))
        #expect(frame[160, 75].r == 255 && frame[160, 118].r == 255)
        #expect(frame[160, 122] == TestFrame.opaqueBlack && frame[160, 165] == TestFrame.opaqueBlack)
    }

    @Test func nothingShowsBeforeAndEverythingAfter() throws {
        let renderer = try OverlayRenderer(layers: [wiped(sweepingRight)], fonts: [], renderSize: PixelSize(width: 320, height: 240))
        #expect(renderer.sprites(at: .zero).isEmpty, "an empty cut draws nothing")
        let whole = try #require(renderer.sprites(at: seconds(3)).first)
        let plain = try #require(try OverlayRenderer(layers: [wiped(.whole)], fonts: [], renderSize: PixelSize(width: 320, height: 240))
            .sprites(at: seconds(3)).first)
        #expect((whole.x, whole.y, whole.width, whole.height) == (plain.x, plain.y, plain.width, plain.height))
    }

    @Test func aShadowIsCutWithWhatCastsIt() throws {
        // Red shadow 40 px below white letters; half wiped, neither shows right of the line.
        let style = TextStyle(font: "Noto Sans CJK SC", size: 40, color: .white, shadow: Shadow(color: Color(red: 1, green: 0, blue: 0), offsetX: 0, offsetY: 40, blur: 0))
        var text = layer(.text("MMMMMM", style), x: 160, y: 100)
        text.reveal = sweepingRight
        let frame = try render([text], at: seconds(1))
        func count(_ xs: Range<Int>, _ ys: Range<Int>, _ isInk: (TestFrame.Pixel) -> Bool) -> Int {
            xs.reduce(0) { n, x in n + ys.filter { isInk(frame[x, $0]) }.count }
        }
        let white = { (p: TestFrame.Pixel) in p.g > 128 }, red = { (p: TestFrame.Pixel) in p.r > 128 && p.g < 64 }
        #expect(count(0..<154, 60..<125, white) > 300 && count(0..<154, 125..<180, red) > 300, "the left half and its shadow show")
        #expect(count(166..<320, 0..<240, { $0.r > 8 || $0.g > 8 }) == 0, "nothing right of the cut")
    }
}
