import CompositionGraph
import Foundation
import Testing
@testable import OverlayRendering
import TestSupport

@Suite struct PictureLayerTests {
    func image(_ path: String, _ kind: MediaKind = .image) -> OverlayContent {
        let reference = MediaReference.fake("test", path: path, kind: kind)
        return kind == .svg ? .svg(reference) : .image(reference)
    }

    @Test func pngAlphaBlendsOverTheFrame() throws {
        let media = try TemporaryDirectory()
        let png = try media.ffmpeg(["-f", "lavfi", "-i", "color=c=red@0.5:s=64x32,format=rgba", "-frames:v", "1"], output: "half-red.png")
        let blue = TestFrame.Pixel(b: 255, g: 0, r: 0, a: 255)
        let frame = try render([layer(image(png), x: 100, y: 50, anchor: (0, 0))], frame: TestFrame(background: blue))
        #expect(frame.inkBounds?.x == 100..<164 && frame.inkBounds?.y == 50..<82, "natural size, 1:1")
        #expect(frame[130, 60].isClose(to: TestFrame.Pixel(b: 127, g: 0, r: 128, a: 255)), "half red over blue: \(frame[130, 60])")
    }

    @Test func widthScalesKeepingTheAspectRatio() throws {
        let media = try TemporaryDirectory()
        let png = try media.ffmpeg(["-f", "lavfi", "-i", "color=c=white:s=64x32,format=rgba", "-frames:v", "1"], output: "white.png")
        let frame = try render([layer(image(png), x: 10, y: 10, anchor: (0, 0), width: 160)])
        #expect(frame.inkBounds?.x == 10..<170 && frame.inkBounds?.y == 10..<90)
        #expect(frame[11, 11] == TestFrame.Pixel(b: 255, g: 255, r: 255, a: 255), "edges stay crisp (padded, not faded)")
    }

    @Test func fitsInsideABoxGivenByBothSides() throws {
        let media = try TemporaryDirectory()
        let png = try media.ffmpeg(["-f", "lavfi", "-i", "color=c=white:s=64x32,format=rgba", "-frames:v", "1"], output: "white.png")
        let contain = try render([layer(image(png), x: 10, y: 10, anchor: (0, 0), width: 100, height: 100, fit: .contain)])
        #expect(contain.inkBounds?.x == 10..<110 && contain.inkBounds?.y == 35..<85)
        let cover = try render([layer(image(png), x: 10, y: 10, anchor: (0, 0), width: 100, height: 100, fit: .cover)])
        #expect(cover.inkBounds?.x == 10..<110 && cover.inkBounds?.y == 10..<110)
        let fill = try render([layer(image(png), x: 10, y: 10, anchor: (0, 0), width: 100, height: 20, fit: .fill)])
        #expect(fill.inkBounds?.x == 10..<110 && fill.inkBounds?.y == 10..<30)
    }

    @Test func jpegDecodes() throws {
        let media = try TemporaryDirectory()
        let jpeg = try media.ffmpeg(["-f", "lavfi", "-i", "color=c=0x3366ff:s=48x40", "-frames:v", "1", "-q:v", "2"], output: "blue.jpg")
        let frame = try render([layer(image(jpeg), x: 160, y: 120)])
        #expect(frame.inkBounds?.x == 136..<184 && frame.inkBounds?.y == 100..<140)
        #expect(frame[160, 120].isClose(to: TestFrame.Pixel(b: 255, g: 102, r: 51, a: 255), tolerance: 6), "got \(frame[160, 120])")
    }

    /// WebP through gdk-pixbuf's WebP loader (Debian's webp-pixbuf-loader, which the setup
    /// scripts install): lossless with alpha, blended exactly like the PNG.
    @Test func webpWithAlphaDecodes() throws {
        let media = try TemporaryDirectory()
        let webp = try media.ffmpeg(["-f", "lavfi", "-i", "color=c=red@0.5:s=64x32,format=rgba", "-frames:v", "1",
                                     "-c:v", "libwebp", "-lossless", "1"], output: "half-red.webp")
        let blue = TestFrame.Pixel(b: 255, g: 0, r: 0, a: 255)
        let frame = try render([layer(image(webp), x: 100, y: 50, anchor: (0, 0))], frame: TestFrame(background: blue))
        #expect(frame.inkBounds?.x == 100..<164 && frame.inkBounds?.y == 50..<82, "natural size, 1:1")
        #expect(frame[130, 60].isClose(to: TestFrame.Pixel(b: 127, g: 0, r: 128, a: 255)), "half red over blue: \(frame[130, 60])")
    }

    /// An SVG draws what it holds and nothing else: an `<image>` that names a file beside it
    /// stays empty (else a changed file would not change the segment keys, and an SVG could
    /// burn any file of its folder into the video), one embedded as a data: URL draws.
    @Test func anSVGDrawsNoFileItNames() throws {
        let media = try TemporaryDirectory()
        let badge = try media.ffmpeg(["-f", "lavfi", "-i", "color=c=0x00ff00:s=50x50,format=rgba", "-frames:v", "1"], output: "badge.png")
        let dot = try Data(contentsOf: URL(fileURLWithPath: badge)).base64EncodedString()
        let svg = try media.write("""
            <svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="150" height="50">
              <rect x="0" y="0" width="50" height="50" fill="#ff0000"/>
              <image x="50" y="0" width="50" height="50" href="badge.png"/>
              <image x="100" y="0" width="50" height="50" preserveAspectRatio="none" href="data:image/png;base64,\(dot)"/>
            </svg>
            """, to: "doc.svg")
        let frame = try render([layer(image(svg, .svg), x: 0, y: 0, anchor: (0, 0))])
        #expect(frame[25, 25].isClose(to: TestFrame.Pixel(b: 0, g: 0, r: 255, a: 255)), "the SVG's own red: \(frame[25, 25])")
        let background = TestFrame()[75, 25]
        #expect(frame[75, 25] == background, "badge.png beside it is not drawn: \(frame[75, 25])")
        #expect(frame[125, 25].isClose(to: TestFrame.Pixel(b: 0, g: 255, r: 0, a: 255)), "a data: image is part of the SVG: \(frame[125, 25])")
    }

    /// An SVG of more elements than `SVGDocument.maxElements` is refused before librsvg parses
    /// it (200,000 took 35 s and 519 MB); one just under the bound draws.
    @Test func anSVGOfTooManyElementsIsRefusedQuickly() throws {
        let media = try TemporaryDirectory()
        func svg(_ n: Int, _ name: String) throws -> String {
            try media.write("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"10\" height=\"10\">"
                            + String(repeating: "<rect width=\"1\" height=\"1\"/>", count: n) + "</svg>", to: name)
        }
        let huge = try svg(200_000, "huge.svg")
        let start = threadCPUSeconds()
        do {
            _ = try OverlayRenderer(layers: [layer(image(huge, .svg), x: 0, y: 0)], fonts: [], renderSize: PixelSize(width: 8, height: 8))
            Issue.record("an SVG of 200,000 elements must be refused")
        } catch {
            #expect(error.description.contains("200001 elements, more than the 20000 Reel draws"), "\(error.description)")
        }
        #expect(threadCPUSeconds() - start < 2, "\(threadCPUSeconds() - start) s of CPU")
        _ = try OverlayRenderer(layers: [layer(image(try svg(19_000, "fine.svg"), .svg), x: 0, y: 0)], fonts: [],
                                renderSize: PixelSize(width: 8, height: 8))
    }

    @Test func unreadableImageIsAnErrorNamingTheFile() throws {
        let media = try TemporaryDirectory()
        let bogus = try media.write("not an image", to: "logo.png")
        do {
            _ = try OverlayRenderer(layers: [layer(image(bogus), x: 0, y: 0)], fonts: [], renderSize: PixelSize(width: 8, height: 8))
            Issue.record("a broken image must be an error")
        } catch {
            #expect(error.description.contains(bogus) && error.layerIndex == 0)
        }
    }

    /// A 40×40 SVG with a circle of radius 15: drawn at 4×, its edge is a vector edge (about
    /// one partially covered pixel), not an enlarged bitmap (a ramp several pixels wide).
    @Test func svgStaysSharpWhenScaled() throws {
        let media = try TemporaryDirectory()
        let svg = try media.write("""
            <svg xmlns="http://www.w3.org/2000/svg" width="40" height="40"><circle cx="20" cy="20" r="15" fill="#fff"/></svg>
            """, to: "dot.svg")
        let renderer = try OverlayRenderer(layers: [layer(image(svg, .svg), x: 160, y: 120, scale: .constant(4))],
                                           fonts: [], renderSize: PixelSize(width: 320, height: 240))
        let sprite = try #require(renderer.sprites(at: .zero).first)
        #expect((sprite.x, sprite.y, sprite.width, sprite.height) == (80, 40, 160, 160), "the 160×160 box of the 4× SVG")
        // The centre row crosses the circle's left edge at x = 160 - 60 = 100 (sprite x 20).
        let row = (0..<sprite.width).map { spritePixel(sprite, $0, 80).a }
        let partial = row.filter { $0 != 0 && $0 != 255 }
        #expect(partial.count <= 2, "edge pixels: \(partial)")
        #expect(row[19] == 0 && row[21] == 255 && row[80] == 255)
    }

    @Test func svgHonoursAGivenWidth() throws {
        let media = try TemporaryDirectory()
        let svg = try media.write("""
            <svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 20 10"><rect width="20" height="10" fill="#f00"/></svg>
            """, to: "bar.svg")
        let frame = try render([layer(image(svg, .svg), x: 10, y: 10, anchor: (0, 0), width: 200)])
        #expect(frame.inkBounds?.x == 10..<210 && frame.inkBounds?.y == 10..<110)
        #expect(frame[100, 50] == TestFrame.Pixel(b: 0, g: 0, r: 255, a: 255))
    }

    @Test func brokenSVGIsAnError() throws {
        let media = try TemporaryDirectory()
        let svg = try media.write("<svg xmlns=\"http://www.w3.org/2000/svg\"><rect", to: "broken.svg")
        #expect(throws: OverlayError.self) {
            try OverlayRenderer(layers: [layer(image(svg, .svg), x: 0, y: 0)], fonts: [], renderSize: PixelSize(width: 8, height: 8))
        }
    }
}
