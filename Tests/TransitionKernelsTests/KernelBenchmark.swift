import Foundation
import Testing
@testable import TransitionKernels

/// Milliseconds per 1080p frame of each kernel on one core, at 25, 50 and 75 % (the median
/// of three, the first of which also sets up the kernel's scratch pictures): which kinds a render's transition makes expensive. Run with
/// `REEL_TRANSITIONS_BENCH=1 swift test -c release --skip-build --filter KernelBenchmark`
/// (`REEL_TRANSITIONS_BENCH=swirl,luma` for those kinds alone);
/// `scripts/bench-transitions` measures whole renders.
@Suite(.enabled(if: ProcessInfo.processInfo.environment["REEL_TRANSITIONS_BENCH"] != nil))
struct KernelBenchmark {
    /// This thread's CPU time in milliseconds.
    static func threadCPU() -> Double {
        var t = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t)
        return Double(t.tv_sec) * 1e3 + Double(t.tv_nsec) / 1e6
    }

    @Test func millisecondsPerFrame() {
        let from = KernelFixture.ramp(width: 1920, height: 1080), to = KernelFixture.solid(SIMD4(0.2, 0.4, 0.6, 1), width: 1920, height: 1080)
        let out = TransitionPicture(width: 1920, height: 1080)
        // One workspace for every frame, as a render's mixer keeps its own.
        let workspace = TransitionWorkspace()
        let chosen = Set((ProcessInfo.processInfo.environment["REEL_TRANSITIONS_BENCH"] ?? "").split(separator: ",").map(String.init))
        for kind in TransitionCatalogue.all where chosen.subtracting(["1"]).isEmpty || chosen.contains(kind.declaration.name) {
            let kernel = KernelFixture.atDefaults(kind, map: from)
            // Wall-clock and this thread's CPU milliseconds (the CPU time is steadier on a
            // machine other work shares).
            let times = [0.25, 0.5, 0.75].map { progress in
                let runs = (0..<3).map { _ in
                    let cpu = Self.threadCPU(), start = ContinuousClock.now
                    TransitionRenderer.render(kernel, progress: progress, from: from, to: to, into: out, workspace: workspace)
                    let elapsed = ContinuousClock.now - start
                    return (Double(elapsed.components.seconds) * 1e3 + Double(elapsed.components.attoseconds) / 1e15, Self.threadCPU() - cpu)
                }
                return (runs.map(\.0).sorted()[1], runs.map(\.1).sorted()[1])
            }
            print("\(kind.declaration.name.padding(toLength: 26, withPad: " ", startingAt: 0))"
                  + times.map { String(format: "%8.1f", $0.0) }.joined() + " ms wall, cpu"
                  + times.map { String(format: "%8.1f", $0.1) }.joined() + " ms")
        }
    }
}
