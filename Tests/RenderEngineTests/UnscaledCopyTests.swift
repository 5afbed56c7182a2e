import CompositionGraph
@testable import RenderEngine
import Testing

/// The general path's shortcut for an opaque picture placed unscaled at whole pixels writes
/// exactly the bytes of the general loop (reached here through a mask that covers everything,
/// which the shortcut leaves to the loop).
@Suite struct UnscaledCopyTests {
    /// A picture whose every sample differs from its neighbours, so a chroma tap off by one shows.
    static func patterned(width: Int, height: Int) -> YUVFrame {
        let f = YUVFrame(width: width, height: height)
        for y in 0..<height { for x in 0..<width { f.y[y * f.yStride + x] = UInt8(truncatingIfNeeded: 16 + (x * 37 + y * 101) % 220) } }
        for y in 0..<f.chromaHeight {
            for x in 0..<f.chromaWidth {
                f.u[y * f.chromaStride + x] = UInt8(truncatingIfNeeded: 16 + (x * 53 + y * 29) % 225)
                f.v[y * f.chromaStride + x] = UInt8(truncatingIfNeeded: 240 - (x * 17 + y * 71) % 225)
            }
        }
        return f
    }

    /// An opaque layer showing a `size` picture unscaled, its centre at `centre` on a `render` frame.
    static func placed(_ size: PixelSize, render: PixelSize, centre: (Double, Double)) -> PlannedLayer {
        let instruction = LayerInstruction(trackID: 1, fit: .fill, transform: .identity(for: render), opacity: .constant(1), crop: .none)
        var placement = LayerPlacement(layer: instruction, sourceSize: size, renderSize: render, at: .zero)
        placement.boxWidth = Double(size.width)
        placement.boxHeight = Double(size.height)
        placement.anchorX = Double(size.width) / 2
        placement.anchorY = Double(size.height) / 2
        (placement.positionX, placement.positionY) = centre
        return PlannedLayer(trackID: 1, content: .media(testRef, sourceTime: .zero), placement: placement, alpha: 256)
    }

    static func canvas(_ layer: PlannedLayer, _ picture: LayerPicture, render: PixelSize) -> [UInt8] {
        let image = FrameCompositor(renderSize: render).drawCanvas(plan([layer], background: Color(red: 0.2, green: 0.4, blue: 0.6)),
                                                                   pictures: [picture])
        return Array(UnsafeBufferPointer(start: image.pixels, count: image.stride * image.height))
    }

    @Test(arguments: [(64, 36, 32.0, 18.0), (37, 21, 30.5, 20.5), (37, 21, 3.5, -4.5), (64, 36, 70.0, 30.0), (5, 3, 60.5, 1.5)])
    func shortcutWritesTheGeneralLoopsBytes(width: Int, height: Int, centreX: Double, centreY: Double) {
        let render = PixelSize(width: 64, height: 36), size = PixelSize(width: width, height: height)
        let layer = Self.placed(size, render: render, centre: (centreX, centreY))
        #expect(UnscaledCopy.origin(of: layer, pictureSize: size) != nil, "the layer takes the shortcut")
        let frame = Self.patterned(width: width, height: height)
        let everywhere = CoveragePlane(width: render.width, height: render.height, bytes: Array(repeating: 255, count: render.width * render.height))
        let shortcut = Self.canvas(layer, .yuv(frame), render: render)
        #expect(shortcut == Self.canvas(layer, .masked(.yuv(frame), everywhere), render: render))
        let background = Self.canvas(layer, .masked(.yuv(frame), CoveragePlane(width: render.width, height: render.height,
                                                                                bytes: Array(repeating: 0, count: render.width * render.height))),
                                     render: render)
        #expect(shortcut != background, "the picture shows")
    }

    @Test func aScaledCroppedOrFadedLayerTakesTheLoop() {
        let render = PixelSize(width: 64, height: 36)
        let whole = Self.placed(render, render: render, centre: (32, 18))
        #expect(UnscaledCopy.origin(of: whole, pictureSize: render)! == (0, 0))
        #expect(UnscaledCopy.origin(of: whole, pictureSize: PixelSize(width: 32, height: 18)) == nil, "scaled")
        var faded = whole
        faded.alpha = 255
        #expect(UnscaledCopy.origin(of: faded, pictureSize: render) == nil)
        var cropped = whole
        cropped.placement.cropLeft = 0.1
        #expect(UnscaledCopy.origin(of: cropped, pictureSize: render) == nil)
        var shifted = whole
        shifted.placement.positionX += 0.5
        #expect(UnscaledCopy.origin(of: shifted, pictureSize: render) == nil, "between pixels")
    }
}
