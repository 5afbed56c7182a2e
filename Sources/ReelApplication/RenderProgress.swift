import Foundation

/// How a render shows its progress: `reel render --progress`, and what a parent asks of a child
/// render (`ChildRender`), whose JSON lines it reads.
public enum ProgressStyle: String, Sendable, CaseIterable {
    /// A live line on the terminal (standard error), nothing when it is not a terminal.
    case auto
    /// One JSON object a second on standard output, for pipelines.
    case json
    case none
}

/// How far a render is after a frame: an event each front end shows its own way (`reel` as a
/// live line on the terminal or as JSON lines for pipelines). The clock only ever feeds what is
/// shown, never the output file.
public struct RenderProgress: Equatable, Sendable {
    public let framesDone: Int64
    /// At least 1.
    public let totalFrames: Int64
    /// Seconds since the render started.
    public let elapsed: TimeInterval
    /// The segments of the render, for its JSON lines (nil: not told).
    public let segments: Int?

    public init(framesDone: Int64, totalFrames: Int64, elapsed: TimeInterval, segments: Int? = nil) {
        self.framesDone = framesDone
        self.totalFrames = max(totalFrames, 1)
        self.elapsed = elapsed
        self.segments = segments
    }

    public var framesPerSecond: Double { elapsed > 0 ? Double(framesDone) / elapsed : 0 }

    /// Seconds still to go at the rate so far (0 before any rate is known).
    public var remaining: TimeInterval { framesPerSecond > 0 ? Double(totalFrames - framesDone) / framesPerSecond : 0 }

    /// `45.0%  frame 270/600  60.0 fps  elapsed 0:05  ETA 0:06`.
    public var line: String {
        "\(format(100 * Double(framesDone) / Double(totalFrames), 1))%  frame \(framesDone)/\(totalFrames)  \(format(framesPerSecond, 1)) fps  "
            + "elapsed \(clock(elapsed))  ETA \(clock(remaining))"
    }

    /// `{"frame":270,"frames":600,"percent":45.00,"fps":60.00,"elapsed":4.500,"eta":5.500,"segments":3}`
    /// (`segments` when told): what `ChildRenderLine` reads.
    public var json: String {
        #"{"frame":\#(framesDone),"frames":\#(totalFrames),"percent":\#(format(100 * Double(framesDone) / Double(totalFrames), 2)),"#
            + #""fps":\#(format(framesPerSecond, 2)),"elapsed":\#(format(elapsed, 3)),"eta":\#(format(remaining, 3))"#
            + (segments.map { #","segments":\#($0)"# } ?? "") + "}"
    }

    /// A non-negative number with `digits` decimals and a dot, whatever the locale.
    private func format(_ v: Double, _ digits: Int) -> String {
        var scale: Int64 = 1
        for _ in 0..<digits { scale *= 10 }
        let n = Int64((max(v, 0) * Double(scale)).rounded())
        let fraction = String(n % scale)
        return "\(n / scale).\(String(repeating: "0", count: digits - fraction.count))\(fraction)"
    }

    private func clock(_ seconds: TimeInterval) -> String {
        let s = Int(seconds.rounded())
        return s >= 3600 ? "\(s / 3600):\(pad((s / 60) % 60)):\(pad(s % 60))" : "\(s / 60):\(pad(s % 60))"
    }

    private func pad(_ v: Int) -> String { v < 10 ? "0\(v)" : "\(v)" }
}
