import CompositionGraph
import MediaTime
import Testing
@testable import OverlayRendering
import TestSupport

@Suite struct AnimationTests {
    /// Eased progress at 1/4 and 1/2 of the way, computed independently (Newton's method on the
    /// CSS cubic Bézier) and rounded to 5 places.
    static let easings: [(Easing, quarter: Double, half: Double)] = [
        (.linear, 0.25, 0.5),
        (.hold, 0, 0),
        (.easeIn, 0.09346, 0.31536),
        (.easeOut, 0.37814, 0.68464),
        (.easeInOut, 0.12916, 0.5),
        (.cubicBezier(0.25, 0.1, 0.25, 1), 0.40851, 0.8024),
    ]

    /// A white square whose opacity goes 0 → 1 from 1 s to 3 s with `ease`.
    func fading(_ ease: Easing) -> OverlayLayer {
        let opacity = Animation(keyframes: [Keyframe(time: seconds(1), value: 0, ease: ease), Keyframe(time: seconds(3), value: 1)])
        return layer(solidRect(.white), x: 160, y: 120, width: 20, height: 20, opacity: opacity)
    }

    @Test(arguments: 0..<6)
    func opacityAtAndBetweenKeyframes(_ index: Int) throws {
        let (ease, quarter, half) = Self.easings[index]
        let renderer = try OverlayRenderer(layers: [fading(ease)], fonts: [], renderSize: PixelSize(width: 320, height: 240))
        #expect(renderer.sprites(at: seconds(1)).isEmpty, "opacity 0 at the first keyframe: nothing drawn")
        #expect(renderer.sprites(at: .zero).isEmpty, "before the first keyframe the first value holds")
        for (t, expected) in [(seconds(3, 2), quarter), (seconds(2), half), (seconds(3), 1.0), (seconds(5), 1.0)] {
            var frame = TestFrame()
            frame.composite(renderer, at: t)
            let level = Int((expected * 255).rounded())
            #expect(abs(Int(frame[160, 120].r) - level) <= 1, "\(ease) at \(t) s: expected ≈ \(level), got \(frame[160, 120].r)")
        }
    }

    @Test func layerIsVisibleOnlyInsideItsTimeRange() throws {
        var shown = layer(solidRect(.white), x: 10, y: 10, width: 4, height: 4)
        shown.timeRange = TimeRange(start: seconds(2), duration: seconds(1))
        let renderer = try OverlayRenderer(layers: [shown], fonts: [], renderSize: PixelSize(width: 64, height: 64))
        #expect(renderer.sprites(at: seconds(199, 100)).isEmpty)
        #expect(renderer.sprites(at: seconds(2)).count == 1)
        #expect(renderer.sprites(at: seconds(299, 100)).count == 1)
        #expect(renderer.sprites(at: seconds(3)).isEmpty, "the range is half-open")
    }

    @Test func staticLayerIsRasterisedOnceAndItsPixelsReused() throws {
        let renderer = try OverlayRenderer(layers: [fading(.linear)], fonts: [], renderSize: PixelSize(width: 320, height: 240))
        let first = try #require(renderer.sprites(at: seconds(2)).first)
        let later = try #require(renderer.sprites(at: seconds(5, 2)).first)
        #expect(first.pixels === later.pixels, "only the opacity changed: same buffer")
        #expect(first.opacity == 0.5 && later.opacity == 0.75)
        #expect((first.x, first.y, first.width, first.height) == (150, 110, 20, 20))
    }

    @Test func animatedScaleRedrawsEachFrameAndReusesAFreedBuffer() throws {
        let scale = Animation(keyframes: [Keyframe(time: .zero, value: 1), Keyframe(time: seconds(2), value: 3)])
        let renderer = try OverlayRenderer(layers: [layer(solidRect(.white), x: 160, y: 120, width: 20, height: 20, scale: scale)],
                                           fonts: [], renderSize: PixelSize(width: 320, height: 240))
        let small = try #require(renderer.sprites(at: .zero).first)
        let large = try #require(renderer.sprites(at: seconds(2)).first)
        #expect((small.width, large.width) == (20, 60))
        #expect(spritePixel(small, 10, 10).a == 255, "the first sprite is not redrawn while held")
        // Same geometry again, with nobody holding the old sprite: its buffer is redrawn in place.
        let identity = ObjectIdentifier(large.pixels)
        _ = consume large
        let again = try #require(renderer.sprites(at: .zero).first)
        #expect(again.width == 20 && ObjectIdentifier(again.pixels) != identity)
        #expect(spritePixel(again, 10, 10) == TestFrame.Pixel(b: 255, g: 255, r: 255, a: 255))
    }

    @Test func layerEntirelyOffTheFrameMakesNoSprite() throws {
        let renderer = try OverlayRenderer(layers: [layer(solidRect(.white), x: -100, y: 50, width: 40, height: 40)],
                                           fonts: [], renderSize: PixelSize(width: 64, height: 64))
        #expect(renderer.sprites(at: .zero).isEmpty)
    }

    @Test func layerPartlyOffTheFrameIsCutToIt() throws {
        let renderer = try OverlayRenderer(layers: [layer(solidRect(.white), x: 0, y: 0, width: 40, height: 40)],
                                           fonts: [], renderSize: PixelSize(width: 64, height: 64))
        let sprite = try #require(renderer.sprites(at: .zero).first)
        #expect((sprite.x, sprite.y, sprite.width, sprite.height) == (0, 0, 20, 20))
    }

    @Test func layersStackInListOrder() throws {
        let red = layer(solidRect(Color(red: 1, green: 0, blue: 0)), x: 100, y: 100, width: 40, height: 40)
        let blue = layer(solidRect(Color(red: 0, green: 0, blue: 1)), x: 120, y: 100, width: 40, height: 40)
        let frame = try render([red, blue])
        #expect(frame[110, 100] == TestFrame.Pixel(b: 255, g: 0, r: 0, a: 255), "blue, listed later, is on top")
        #expect(frame[85, 100] == TestFrame.Pixel(b: 0, g: 0, r: 255, a: 255))
    }
}
