import CompositionGraph
import Foundation
import MediaTime
import Testing
@testable import OverlayRendering
import TestSupport

/// Cost per frame of the promo overlays at 1080p: `sprites(at:)` plus `composite` onto a
/// 1920×1080 BGRA frame, for every frame of 30 fps. Run with
/// `REEL_OVERLAY_BENCH=1 swift test -c release --filter OverlayBenchmark`.
@Suite(.enabled(if: ProcessInfo.processInfo.environment["REEL_OVERLAY_BENCH"] != nil))
struct OverlayBenchmark {
    static let frameDuration = MediaTime(1, 30)

    /// Milliseconds per frame over frames `range` (each frame timed alone).
    func measure(_ renderer: OverlayRenderer, frames range: Range<Int64>) -> (first: Double, min: Double, median: Double, mean: Double) {
        var frame = [UInt8](repeating: 0, count: 1920 * 1080 * 4)
        var times: [Double] = []
        for index in range {
            let t = MediaTime.frame(index, duration: Self.frameDuration)
            let start = ContinuousClock.now
            frame.withUnsafeMutableBytes { renderer.composite(into: $0.baseAddress!, width: 1920, height: 1080, stride: 7680, at: t) }
            let elapsed = ContinuousClock.now - start
            times.append(Double(elapsed.components.attoseconds) / 1e15 + Double(elapsed.components.seconds) * 1e3)
        }
        let sorted = times.dropFirst().sorted()
        #expect(sorted[sorted.count / 2] < 1000.0 / 30, "overlays must cost less than a 30 fps frame")
        return (times[0], sorted[0], sorted[sorted.count / 2], sorted.reduce(0, +) / Double(sorted.count))
    }

    func report(_ name: String, _ r: (first: Double, min: Double, median: Double, mean: Double)) {
        print(String(format: "BENCH %@: first frame %.3f ms, then min %.3f / median %.3f / mean %.3f ms per frame",
                     name, r.first, r.min, r.median, r.mean))
    }

    @Test func promoTitleAndWatermarkAt1080p() throws {
        let media = try TemporaryDirectory()
        let logo = try PromoOverlays.makeLogo(in: media)

        let start = ContinuousClock.now
        let both = try OverlayRenderer(layers: [PromoOverlays.title, PromoOverlays.watermark(logo)], fonts: [], renderSize: PromoOverlays.renderSize)
        print("BENCH renderer init (fonts, layout, logo decode): \(ContinuousClock.now - start)")

        let title = try OverlayRenderer(layers: [PromoOverlays.title], fonts: [], renderSize: PromoOverlays.renderSize)
        let watermark = try OverlayRenderer(layers: [PromoOverlays.watermark(logo)], fonts: [], renderSize: PromoOverlays.renderSize)
        report("title while shown (1 s–5 s, fading in and out; first = rasterisation)", measure(title, frames: 31..<150))
        report("title outside its range (0 s–1 s)", measure(title, frames: 0..<30))
        report("watermark 480x160 at 70 %", measure(watermark, frames: 0..<150))
        report("title + watermark, 20 s", measure(both, frames: 0..<600))
        let sprites = both.sprites(at: seconds(2))
        print("BENCH sprites at 2 s: " + sprites.map { "\($0.width)x\($0.height) at (\($0.x), \($0.y)) opacity \($0.opacity)" }.joined(separator: "; "))
        #expect(sprites.count == 2)
    }

    @Test func animatedRotationRerastersEveryFrame() throws {
        var spinning = PromoOverlays.title
        spinning.rotation = Animation(keyframes: [Keyframe(time: seconds(1), value: 0), Keyframe(time: seconds(5), value: 360)])
        let renderer = try OverlayRenderer(layers: [spinning], fonts: [], renderSize: PromoOverlays.renderSize)
        report("title rotating (re-rasterised each frame)", measure(renderer, frames: 45..<135))
    }
}
