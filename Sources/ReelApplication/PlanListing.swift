import Foundation
import MediaTime
import ProjectFile
import RenderEngine

/// The segments a render is made of, with the project's warnings (`reel plan --json`): times
/// exact (`"299/30"`) and as clocks.
public struct PlanListing: Encodable, Sendable {
    public struct Segment: Encodable, Sendable {
        public var index: Int
        public var firstFrame: Int64
        public var frameCount: Int64
        public var start: String
        public var end: String
        public var startClock: String
        public var endClock: String
        public var key: String
    }

    public var framesPerSegment: Int64
    public var segments: [Segment]
    public var warnings: [DiagnosticValue]

    public init(_ plan: SegmentPlan, warnings: [Diagnostic]) {
        framesPerSegment = plan.framesPerSegment
        self.warnings = warnings.map(DiagnosticValue.init)
        segments = plan.segments.map {
            Segment(index: $0.index, firstFrame: $0.firstFrame, frameCount: $0.frameCount, start: $0.timeRange.start.description,
                    end: $0.timeRange.end.description, startClock: TimeNotation.clock($0.timeRange.start),
                    endClock: TimeNotation.clock($0.timeRange.end), key: $0.key)
        }
    }

    /// `12 segments of 60 frames`, then a line a segment: index, frames, clock times, key.
    public var text: String {
        "\(segments.count) segments of \(framesPerSegment) frames\n" + segments.map {
            "  \($0.index)  frames \($0.firstFrame)–\($0.firstFrame + $0.frameCount - 1)  \($0.startClock)–\($0.endClock)  \($0.key)\n"
        }.joined()
    }

    /// Pretty-printed JSON with sorted keys.
    public var json: String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return String(decoding: (try? encoder.encode(self)) ?? Data(), as: UTF8.self) + "\n"
    }
}
