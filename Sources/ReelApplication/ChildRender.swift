import Batch
import Foundation
import ProjectFile
import RenderEngine

/// Renders with a child `reel render` process of this program (a crash or a failure stays the
/// child's: a batch's row, a service's job). Text values are passed as `--set` (typed by the
/// var's rules, as the plan checked them), typed values and long texts in a temporary `--vars`
/// JSON file: the command line is the protocol between the two processes.
public struct ChildRender: Sendable {
    /// Longest text passed as `--set`. Linux refuses a command-line argument over 128 KiB; a
    /// text this long is no number, colour or time, so as a JSON string it means the same.
    static let longestArgument = 16 << 10

    public var project: String
    public var threads: Int
    public var segmentJobs: Int
    public var preset: ExportPreset?
    /// Where the child keeps its segments (nil: the cache its environment names).
    public var parts: String?
    /// The only folders the project may read, its relative paths looked up in them (a
    /// service's media roots); empty: any file, relative to the project's.
    public var mediaRoots: [String]
    /// The child stops, as on SIGTERM, when this process dies (`ChildProcess`'s `keepsInputOpen`).
    public var stopsWithParent: Bool
    /// The child runs in its scratch folder (`ChildProcess`'s `inScratch`), where `project` was
    /// written: its files are named from there.
    public var inScratch: Bool

    public init(project: String, threads: Int, segmentJobs: Int, preset: ExportPreset?, parts: String? = nil, mediaRoots: [String] = [],
                stopsWithParent: Bool = false, inScratch: Bool = false) {
        (self.project, self.threads, self.segmentJobs, self.preset) = (project, threads, segmentJobs, preset)
        (self.parts, self.mediaRoots, self.stopsWithParent, self.inScratch) = (parts, mediaRoots, stopsWithParent, inScratch)
    }

    /// Nil when the row rendered; else what went wrong, with the child's standard error.
    public func render(_ job: BatchJob) -> String? {
        ChildProcess.run("reel render") { scratch in
            try arguments(output: job.outputPath, rendition: job.rendition, values: job.values, progress: .none, scratch: scratch)
        }
    }

    /// The arguments of `reel render` making `rendition` of the project with `values` into
    /// `output`, a vars file written into `scratch` when one is needed.
    public func arguments(output: String, rendition: String?, values: [VarOverride], progress: ProgressStyle, scratch: URL) throws -> [String] {
        // `--output=PATH` in one argument: a name that starts with '-' is not taken for an option.
        // `--offline`: remote media were fetched into the cache when the render was checked.
        var arguments = ["render", project, "--output=\(output)", "--progress", progress.rawValue, "--threads", String(threads),
                         "--jobs", String(segmentJobs), "--offline"]
        if let rendition { arguments += ["--rendition", rendition] }
        if let preset { arguments += ["--preset", preset.rawValue] }
        if let parts { arguments += ["--parts", parts] }
        for root in mediaRoots { arguments.append("--media-root=\(root)") }
        if stopsWithParent { arguments.append(ChildRenderLine.stopsWithInput) }
        var typed: [(String, Node.Value)] = []
        for value in values {
            switch value.input {
            case .text(let text) where text.utf8.count > Self.longestArgument: typed.append((value.name, .string(text)))
            case .text(let text): arguments += ["--set", "\(value.name)=\(text)"]
            case .value(let v): typed.append((value.name, v))
            }
        }
        if !typed.isEmpty {
            let file = scratch.appendingPathComponent("vars.json")
            try VarOverride.varsFileText(typed).write(to: file, atomically: false, encoding: .utf8) // a folder of its own: nobody sees it half-written
            arguments += ["--vars", inScratch ? file.lastPathComponent : file.path]
        }
        return arguments
    }
}

/// A line a child `reel render --progress json` prints on standard output, as its parent reads
/// it: the frames done so far (about once a second), and at the end what the render did with
/// its segments. Other lines (the loudness) are not the parent's.
public enum ChildRenderLine: Equatable, Sendable {
    /// `segments`: how many the render has (nil: not told).
    case progress(frame: Int64, frames: Int64, segments: Int?)
    case finished(rendered: Int, reused: Int)

    /// The hidden `reel render` flag that makes the child stop (as on SIGTERM) once its standard
    /// input ends: its parent holds it open while it lives.
    public static let stopsWithInput = "--stop-with-input"

    public init?(_ line: String) {
        struct Progress: Decodable { var frame: Int64, frames: Int64, segments: Int? }
        struct Finished: Decodable {
            struct Segments: Decodable { var rendered: Int, reused: Int }
            var segments: Segments
        }
        let data = Data(line.utf8)
        if let progress = try? JSONDecoder().decode(Progress.self, from: data) {
            self = .progress(frame: progress.frame, frames: progress.frames, segments: progress.segments)
        } else if let finished = try? JSONDecoder().decode(Finished.self, from: data) {
            self = .finished(rendered: finished.segments.rendered, reused: finished.segments.reused)
        } else {
            return nil
        }
    }
}

extension ExportSession.Report {
    /// `{"segments":{"rendered":3,"reused":2},"audio":"mixed"}`: the summary as the last line but
    /// the loudness of `--progress json` (`audio` null without audio).
    public var json: String {
        let audio = self.audio.map { $0 == .reused ? #""reused""# : #""mixed""# } ?? "null"
        return #"{"segments":{"rendered":\#(rendered.count),"reused":\#(reused.count)},"audio":\#(audio)}"#
    }
}
