import Foundation
import MediaTime

extension ProjectDifference {
    /// One line per changed range, then a summary:
    ///
    ///     00:00:00.000–00:00:06.000 video: overlays[0].text (via vars.headline)
    ///     6.0 s of 20.0 s video changed; audio unchanged
    public var text: String {
        var lines: [String] = []
        if !everything.isEmpty {
            lines.append("everything changes: " + everything.map(\.text).joined(separator: ", "))
        }
        for c in changed {
            let what = [c.video ? "video" : nil, c.audio ? "audio" : nil].compactMap { $0 }.joined(separator: "+")
            lines.append("\(TimeNotation.clock(c.range.start))–\(TimeNotation.clock(c.range.end)) \(what): "
                         + (c.causes.isEmpty ? Self.noCause : c.causes.map(\.text).joined(separator: ", ")))
        }
        if let removed {
            lines.append("\(TimeNotation.clock(removed.start))–\(TimeNotation.clock(removed.end)) removed: the old side is longer")
        }
        if !fileOnly.isEmpty {
            lines.append("the file changes, not its frames or sound: " + fileOnly.map(\.text).joined(separator: ", "))
        }
        lines.append(summary)
        return lines.joined(separator: "\n")
    }

    /// What a range whose keys differ says when no value or file of either project does (a
    /// system font, another Reel version).
    static let noCause = "no cause in the projects (a system font, or Reel's version)"

    /// `6.0 s of 20.0 s video changed; audio unchanged`, or `no change`.
    public var summary: String {
        if isIdentical { return "no change: the outputs are byte-identical (\(Self.tenths(duration)) s)" }
        var parts = ["\(Self.tenths(videoChanged)) s of \(Self.tenths(duration)) s video changed",
                     audioChanged ? "audio changed" : "audio unchanged"]
        if oldDuration != duration { parts.append("length \(Self.tenths(oldDuration)) s → \(Self.tenths(duration)) s") }
        return parts.joined(separator: "; ")
    }

    private static func tenths(_ t: MediaTime) -> String {
        let tenths = (t.value * Rational(10)).rounded
        return "\(tenths / 10).\(abs(tenths % 10))"
    }

    /// The difference as JSON values (times in seconds, with the exact rationals as strings).
    public var report: Report {
        Report(identical: isIdentical, duration: duration.seconds, durationExact: duration.description,
               oldDuration: oldDuration.seconds, oldDurationExact: oldDuration.description,
               videoChanged: videoChanged.seconds, audioChanged: audioChanged,
               removed: removed.map { .init(start: $0.start.seconds, end: $0.end.seconds, startExact: $0.start.description, endExact: $0.end.description) },
               changed: changed.map { c in
                   .init(start: c.range.start.seconds, end: c.range.end.seconds, startExact: c.range.start.description,
                         endExact: c.range.end.description, video: c.video, audio: c.audio, segments: c.segments, causes: c.causes.map(\.text))
               },
               everything: everything.map(\.text), fileOnly: fileOnly.map(\.text), causes: causes.map(\.text), summary: summary)
    }

    public struct Report: Encodable, Sendable {
        public struct Span: Encodable, Sendable {
            var start: Double
            var end: Double
            var startExact: String
            var endExact: String

            enum CodingKeys: String, CodingKey { case start, end, startExact = "start_exact", endExact = "end_exact" }
        }

        public struct Range: Encodable, Sendable {
            var start: Double
            var end: Double
            var startExact: String
            var endExact: String
            var video: Bool
            var audio: Bool
            var segments: [Int]
            var causes: [String]

            enum CodingKeys: String, CodingKey {
                case start, end, startExact = "start_exact", endExact = "end_exact", video, audio, segments, causes
            }
        }

        var identical: Bool
        var duration: Double
        var durationExact: String
        var oldDuration: Double
        var oldDurationExact: String
        var videoChanged: Double
        var audioChanged: Bool
        var removed: Span?
        var changed: [Range]
        var everything: [String]
        var fileOnly: [String]
        var causes: [String]
        var summary: String

        enum CodingKeys: String, CodingKey {
            case identical, duration, durationExact = "duration_exact", oldDuration = "old_duration", oldDurationExact = "old_duration_exact",
                 videoChanged = "video_changed", audioChanged = "audio_changed", removed, changed, everything, fileOnly = "file_only", causes, summary
        }
    }
}

/// The differences of one or more renditions as the JSON `reel diff --json` prints.
public enum DifferenceJSON {
    /// One rendition (or none): its report; several: `{"identical": …, "renditions": [{"rendition": name, …}]}`.
    public static func text(_ differences: [(rendition: String?, difference: ProjectDifference)]) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
        let data: Data?
        if differences.count == 1 {
            data = try? encoder.encode(differences[0].difference.report)
        } else {
            data = try? encoder.encode(Several(identical: differences.allSatisfy { $0.difference.isIdentical },
                                               renditions: differences.map { Named(rendition: $0.rendition ?? "", report: $0.difference.report) }))
        }
        guard let data else { preconditionFailure("a diff report must encode") }
        return String(decoding: data, as: UTF8.self)
    }

    private struct Several: Encodable {
        var identical: Bool
        var renditions: [Named]
    }

    private struct Named: Encodable {
        var rendition: String
        var report: ProjectDifference.Report

        func encode(to encoder: any Encoder) throws {
            try report.encode(to: encoder)
            var c = encoder.container(keyedBy: Key.self)
            try c.encode(rendition, forKey: .rendition)
        }

        enum Key: String, CodingKey { case rendition }
    }
}
