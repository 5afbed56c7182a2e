import Batch
import Foundation
import ProjectFile
import RenderEngine

/// Renders one batch row with a child `reel render` process of this program (a crash or a
/// failure stays in its row). Text values are passed as `--set` (typed by the var's rules, as the
/// plan checked them), typed values and long texts in a temporary `--vars` JSON file: the
/// command line is the protocol between the two processes.
public struct ChildRender: Sendable {
    /// Longest text passed as `--set`. Linux refuses a command-line argument over 128 KiB; a
    /// text this long is no number, colour or time, so as a JSON string it means the same.
    static let longestArgument = 16 << 10

    public var project: String
    public var threads: Int
    public var segmentJobs: Int
    public var preset: ExportPreset?

    public init(project: String, threads: Int, segmentJobs: Int, preset: ExportPreset?) {
        (self.project, self.threads, self.segmentJobs, self.preset) = (project, threads, segmentJobs, preset)
    }

    /// Nil when the row rendered; else what went wrong, with the child's standard error.
    public func render(_ job: BatchJob) -> String? {
        ChildProcess.run("reel render") { scratch in
            // `--output=PATH` in one argument: a name that starts with '-' is not taken for an option.
            // `--offline`: the rows' remote media were fetched into the cache when the batch was planned.
            var arguments = ["render", project, "--output=\(job.outputPath)", "--progress", "none", "--threads", String(threads),
                             "--jobs", String(segmentJobs), "--offline"]
            if let rendition = job.rendition { arguments += ["--rendition", rendition] }
            if let preset { arguments += ["--preset", preset.rawValue] }
            var typed: [(String, Node.Value)] = []
            for value in job.values {
                switch value.input {
                case .text(let text) where text.utf8.count > Self.longestArgument: typed.append((value.name, .string(text)))
                case .text(let text): arguments += ["--set", "\(value.name)=\(text)"]
                case .value(let v): typed.append((value.name, v))
                }
            }
            if !typed.isEmpty {
                let file = scratch.appendingPathComponent("vars.json")
                try VarOverride.varsFileText(typed).write(to: file, atomically: false, encoding: .utf8) // a folder of its own: nobody sees it half-written
                arguments += ["--vars", file.path]
            }
            return arguments
        }
    }
}
