import CompositionGraph
import Foundation
import MediaTime
import Testing
@testable import OverlayRendering
import TestSupport

/// Writes PNGs of overlay frames for a person to look at. Run with
/// `REEL_OVERLAY_PREVIEW_DIR=/tmp/overlay-previews swift test --filter OverlayPreviews`.
@Suite(.enabled(if: ProcessInfo.processInfo.environment["REEL_OVERLAY_PREVIEW_DIR"] != nil))
struct OverlayPreviews {
    let output = ProcessInfo.processInfo.environment["REEL_OVERLAY_PREVIEW_DIR"] ?? ""

    /// Composites `layers` at each time over a 1920×1080 testsrc2 frame and writes PNGs.
    func preview(_ name: String, _ layers: [OverlayLayer], at times: [MediaTime], media: TemporaryDirectory,
                 expectedOverlays: (MediaTime) -> Int) throws {
        try FileManager.default.createDirectory(atPath: output, withIntermediateDirectories: true)
        let background = try media.ffmpeg(["-f", "lavfi", "-i", "testsrc2=s=1920x1080", "-frames:v", "1"], output: "background.png")
        let full = OverlayLayer(content: .image(MediaReference.fake("bg", path: background, kind: .image)),
                                timeRange: TimeRange(start: .zero, end: seconds(100)), positionX: .constant(960), positionY: .constant(540))
        let renderer = try OverlayRenderer(layers: [full] + layers, fonts: [], renderSize: PromoOverlays.renderSize)
        for t in times {
            #expect(renderer.sprites(at: t).count >= 1 + expectedOverlays(t), "background plus the overlays shown at \(t)")
            var frame = TestFrame(width: 1920, height: 1080)
            frame.composite(renderer, at: t)
            let raw = media.path("\(name).bgra")
            try Data(frame.bytes).write(to: URL(fileURLWithPath: raw))
            let png = "\(output)/\(name)-\(String(format: "%05.2f", t.seconds))s.png"
            _ = try media.ffmpeg(["-f", "rawvideo", "-pix_fmt", "bgra", "-s", "1920x1080", "-i", raw, "-frames:v", "1"], output: "out.png")
            try? FileManager.default.removeItem(atPath: png)
            try FileManager.default.moveItem(atPath: media.path("out.png"), toPath: png)
            #expect(FileManager.default.fileExists(atPath: png))
        }
    }

    @Test func promo() throws {
        let media = try TemporaryDirectory()
        let layers = [PromoOverlays.title, PromoOverlays.watermark(try PromoOverlays.makeLogo(in: media))]
        // The title shows from 1 s to 5 s, the watermark throughout.
        try preview("promo", layers, at: [seconds(1, 2), seconds(5, 4), seconds(3), seconds(21, 2), seconds(15)], media: media) {
            $0 > seconds(1) && $0 < seconds(5) ? 2 : 1
        }
    }

    @Test func everyLayerKind() throws {
        let media = try TemporaryDirectory()
        let logo = try media.write("""
            <svg xmlns="http://www.w3.org/2000/svg" width="120" height="120" viewBox="0 0 120 120">
              <circle cx="60" cy="60" r="54" fill="#ff3366" stroke="#fff" stroke-width="8"/>
              <path d="M40 35 L90 60 L40 85 Z" fill="#fff"/>
            </svg>
            """, to: "logo.svg")
        let accent = Color(parsing: "#ff3366")!
        let shadow = Shadow(color: Color(red: 0, green: 0, blue: 0, alpha: 0.8), offsetX: 6, offsetY: 6, blur: 12)
        func at(_ x: Double, _ y: Double, _ content: OverlayContent, anchor: (Double, Double) = (0.5, 0.5), width: Double? = nil,
                height: Double? = nil, scale: Double = 1, rotation: Double = 0) -> OverlayLayer {
            layer(content, x: x, y: y, anchor: anchor, width: width, height: height, scale: .constant(scale), rotation: .constant(rotation))
        }
        let gradient = Fill.linearGradient(angle: 30, stops: [GradientStop(offset: 0, color: accent), GradientStop(offset: 1, color: Color(red: 0.2, green: 0.3, blue: 1))])
        let layers = [
            at(960, 200, .text("春季促销 Spring Sale", TextStyle(font: "Noto Sans CJK SC", weight: 700, size: 110, color: .white,
                                                              stroke: Stroke(color: accent, width: 5), shadow: shadow))),
            at(80, 900, .text("Jane Doe — Head of Design", TextStyle(font: "DejaVu Sans", weight: 700, size: 48, color: .white, alignment: .left,
                                                                     shadow: shadow,
                                                                     background: .init(color: Color(red: 0.1, green: 0.1, blue: 0.15, alpha: 0.85), padding: 24, cornerRadius: 16))),
               anchor: (0, 1)),
            at(1700, 180, .svg(MediaReference.fake("logo", path: logo, kind: .svg)), scale: 2),
            at(400, 520, .rect(ShapeStyle(fill: gradient, stroke: Stroke(color: .white, width: 6), cornerRadius: 30)), width: 420, height: 220, rotation: -8),
            at(960, 560, .ellipse(ShapeStyle(fill: .color(Color(red: 1, green: 0.85, blue: 0.1, alpha: 0.8)), stroke: Stroke(color: .black, width: 4))), width: 300, height: 180),
            at(1480, 560, .text("مرحبا بالعالم — שלום", TextStyle(font: "DejaVu Sans", size: 56, color: .white, shadow: shadow)), rotation: 12),
            at(1480, 800, .text("A long line that wraps inside a 520 px box, with letter spacing and 1.3 line height.",
                                TextStyle(font: "DejaVu Serif", italic: true, size: 36, color: .white, boxWidth: 520, lineHeight: 1.3, letterSpacing: 2,
                                          background: .init(color: Color(red: 0, green: 0, blue: 0, alpha: 0.6), padding: 16, cornerRadius: 0)))),
            at(960, 1000, .text("Dr. Maximilian Alexander von Habsburg-Lothringen", TextStyle(font: "DejaVu Sans", weight: 700, size: 72, color: accent,
                                                                                            boxWidth: 700, fit: .shrink))),
        ]
        try preview("showcase", layers, at: [seconds(1)], media: media) { _ in layers.count }
    }
}
