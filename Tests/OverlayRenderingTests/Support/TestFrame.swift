import CompositionGraph
import MediaTime
@testable import OverlayRendering
import TestSupport

/// A premultiplied BGRA frame filled with one colour, to composite overlays onto and read back.
struct TestFrame {
    let width: Int
    let height: Int
    var bytes: [UInt8]
    let background: Pixel

    struct Pixel: Equatable, CustomStringConvertible {
        var b, g, r, a: UInt8
        var description: String { "(r \(r), g \(g), b \(b), a \(a))" }

        /// Within `tolerance` on every channel.
        func isClose(to other: Pixel, tolerance: Int = 1) -> Bool {
            abs(Int(b) - Int(other.b)) <= tolerance && abs(Int(g) - Int(other.g)) <= tolerance
                && abs(Int(r) - Int(other.r)) <= tolerance && abs(Int(a) - Int(other.a)) <= tolerance
        }
    }

    static let opaqueBlack = Pixel(b: 0, g: 0, r: 0, a: 255)
    static let transparent = Pixel(b: 0, g: 0, r: 0, a: 0)

    init(width: Int = 320, height: Int = 240, background: Pixel = TestFrame.opaqueBlack) {
        self.width = width
        self.height = height
        self.background = background
        bytes = [UInt8](repeating: 0, count: width * height * 4)
        for i in 0..<(width * height) {
            bytes[4 * i] = background.b; bytes[4 * i + 1] = background.g
            bytes[4 * i + 2] = background.r; bytes[4 * i + 3] = background.a
        }
    }

    var size: PixelSize { PixelSize(width: width, height: height) }

    subscript(x: Int, y: Int) -> Pixel {
        let i = 4 * (y * width + x)
        return Pixel(b: bytes[i], g: bytes[i + 1], r: bytes[i + 2], a: bytes[i + 3])
    }

    mutating func composite(_ renderer: OverlayRenderer, at t: MediaTime) {
        let (w, h) = (width, height)
        bytes.withUnsafeMutableBytes { renderer.composite(into: $0.baseAddress!, width: w, height: h, stride: 4 * w, at: t) }
    }

    /// The smallest rectangle holding every pixel that differs from the background (ink), as
    /// half-open pixel ranges, or nil when the frame is untouched.
    var inkBounds: (x: Range<Int>, y: Range<Int>)? {
        var minX = Int.max, minY = Int.max, maxX = -1, maxY = -1
        for y in 0..<height {
            for x in 0..<width where self[x, y] != background {
                minX = min(minX, x); maxX = max(maxX, x); minY = min(minY, y); maxY = max(maxY, y)
            }
        }
        return maxX < 0 ? nil : (minX..<(maxX + 1), minY..<(maxY + 1))
    }

    /// Pixels differing from the background.
    var inkCount: Int {
        var count = 0
        for y in 0..<height { for x in 0..<width where self[x, y] != background { count += 1 } }
        return count
    }
}

/// A sprite's pixel at (x, y) of its own buffer.
func spritePixel(_ sprite: OverlaySprite, _ x: Int, _ y: Int) -> TestFrame.Pixel {
    sprite.pixels.withUnsafeBytes { bytes in
        let i = y * sprite.pixels.stride + 4 * x
        return TestFrame.Pixel(b: bytes[i], g: bytes[i + 1], r: bytes[i + 2], a: bytes[i + 3])
    }
}


/// A layer shown for the first 10 s at (x, y).
func layer(_ content: OverlayContent, x: Double, y: Double, anchor: (Double, Double) = (0.5, 0.5),
           width: Double? = nil, height: Double? = nil, scale: Animation = .constant(1),
           rotation: Animation = .constant(0), opacity: Animation = .constant(1), fit: Fit = .contain) -> OverlayLayer {
    OverlayLayer(content: content, timeRange: TimeRange(start: .zero, duration: seconds(10)),
                 positionX: .constant(x), positionY: .constant(y),
                 anchorX: .constant(anchor.0), anchorY: .constant(anchor.1),
                 width: width, height: height, scale: scale, rotation: rotation, opacity: opacity, fit: fit)
}

func solidRect(_ color: Color) -> OverlayContent { .rect(ShapeStyle(fill: .color(color))) }

/// Draws `layers` onto a fresh frame at `t`.
func render(_ layers: [OverlayLayer], at t: MediaTime = .zero, fonts: [String] = [],
            frame: TestFrame = TestFrame()) throws -> TestFrame {
    let renderer = try OverlayRenderer(layers: layers, fonts: fonts, renderSize: frame.size)
    var frame = frame
    frame.composite(renderer, at: t)
    return frame
}
