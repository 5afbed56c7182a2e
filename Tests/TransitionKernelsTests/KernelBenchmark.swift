import Foundation
import Testing
@testable import TransitionKernels

/// Milliseconds per 1080p frame of each kernel on one core, at 25, 50 and 75 % (the median
/// of three): which kinds a render's transition makes expensive. Run with
/// `REEL_TRANSITIONS_BENCH=1 swift test -c release --skip-build --filter KernelBenchmark`;
/// `scripts/bench-transitions` measures whole renders.
@Suite(.enabled(if: ProcessInfo.processInfo.environment["REEL_TRANSITIONS_BENCH"] != nil))
struct KernelBenchmark {
    @Test func millisecondsPerFrame() {
        let from = KernelFixture.ramp(width: 1920, height: 1080), to = KernelFixture.solid(SIMD4(0.2, 0.4, 0.6, 1), width: 1920, height: 1080)
        let out = TransitionPicture(width: 1920, height: 1080)
        for kind in TransitionCatalogue.all {
            // A picture parameter (luma's, displacement's) takes the outgoing ramp.
            let pictures = kind.declaration.parameters.filter(\.defaultValue.isPicture).map { ($0.name, TransitionValue.picture(from)) }
            let kernel = kind.init(TransitionValues(Dictionary(uniqueKeysWithValues: pictures), filling: kind.declaration))
            let times = [0.25, 0.5, 0.75].map { progress in
                (0..<3).map { _ in
                    let start = ContinuousClock.now
                    TransitionRenderer.render(kernel, progress: progress, from: from, to: to, into: out)
                    let elapsed = ContinuousClock.now - start
                    return Double(elapsed.components.seconds) * 1e3 + Double(elapsed.components.attoseconds) / 1e15
                }.sorted()[1]
            }
            print("\(kind.declaration.name.padding(toLength: 26, withPad: " ", startingAt: 0))"
                  + times.map { String(format: "%8.1f", $0) }.joined() + " ms")
        }
    }
}
