import Foundation
import LookKernels
import Looks
@testable import RenderEngine
import Testing
import TestSupport

/// Cost of the blur on the pictures of the blurred-backdrop recipe at 1080×1920: a 16:9 source
/// `cover`-fitted is fetched at 3414×1920, of which the 1080 middle columns show (and only they
/// are blurred, with the blur's reach around them), and a 1080×1920 frame for comparison, at a
/// small and a large radius. Run with
/// `REEL_LOOKS_BENCH=1 swift test -c release --filter LooksBenchmark`.
@Suite(.enabled(if: ProcessInfo.processInfo.environment["REEL_LOOKS_BENCH"] != nil))
struct LooksBenchmark {
    func milliseconds(_ body: () throws -> Void) rethrows -> Double {
        var times: [Double] = []
        for _ in 0..<12 {
            let start = ContinuousClock.now
            try body()
            let elapsed = ContinuousClock.now - start
            times.append(Double(elapsed.components.attoseconds) / 1e15 + Double(elapsed.components.seconds) * 1e3)
        }
        return times.dropFirst().sorted()[times.count / 2]
    }

    @Test func blurMillisecondsPerFrame() throws {
        var random = SplitMix64(seed: 1)
        for (width, height) in [(1080, 1920), (3414, 1920)] {
            let frame = YUVFrame(width: width, height: height)
            for plane in 0..<3 {
                let p = frame.plane(plane)
                for i in 0..<(p.stride * (plane == 0 ? height : frame.chromaHeight)) { p.base[i] = UInt8.random(in: 16...235, using: &random) }
            }
            let shown = PictureRegion(x0: (width - 1080) / 2 & ~1, y0: 0, x1: ((width - 1080) / 2 & ~1) + 1080, y1: height)
            for radius in [10.0, 40, 200] {
                let whole = try milliseconds { _ = try LayerLooks.apply([filter(.blur, ["radius": radius])], at: .zero, to: .yuv(frame)) }
                let part = try milliseconds {
                    _ = try LayerLooks.apply([filter(.blur, ["radius": radius])], at: .zero, to: .yuv(frame), within: shown)
                }
                print("blur \(width)x\(height) radius \(Int(radius)): \(String(format: "%.1f", whole)) ms whole, "
                      + "\(String(format: "%.1f", part)) ms for the 1080 columns shown (median of 11)")
            }
            let color = try milliseconds {
                _ = try LayerLooks.apply([filter(.color, ["brightness": -0.1, "contrast": 1.1, "saturation": 0.7, "temperature": 5000])], at: .zero,
                                        to: .yuv(frame))
            }
            print("color \(width)x\(height): \(String(format: "%.1f", color)) ms (median of 11)")
        }
    }
}
