import ReelApplication
import ArgumentParser
import Foundation
import ProjectCompiler
import ProjectFile

/// `reel validate PROJECT...`: every check that can be made before rendering.
struct Validate: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Check projects: schema, vars, media files and their ranges, fonts. Reports every error at once.",
        discussion: """
        Warnings (what renders but is probably not meant) are printed and do not fail the check unless --strict is given. \
        \(ExitStatus.help([.success: "all valid", .invalidInput: "a project is invalid (or has warnings, with --strict)",
                            .missingFile: "a named file is missing", .tryLater: "a remote media file cannot be fetched now"]))
        """
    )

    @Argument(help: "Project files (.yaml, .yml or .json).")
    var projects: [String]

    @OptionGroup var vars: VarOverrides

    @OptionGroup var fetching: MediaFetching

    @OptionGroup var warnings: StrictOption

    func run() throws {
        let report = check()
        for line in report.lines {
            switch line {
            case .output(let text): print(text)
            case .error(let text): FileHandle.standardError.write(Data((text + "\n").utf8))
            }
        }
        if report.status != 0 { throw ExitCode(report.status) }
    }

    /// Every project checked: what the command says, in order, and its exit status (the
    /// worst of its failures').
    func check() -> Report {
        var report = Report()
        let values: VarInputs, workspace: Workspace
        do {
            (values, workspace) = (try vars.values(), try fetching.workspace())
        } catch {
            report.fail(error)
            return report
        }
        for path in projects {
            do {
                let outcomes = workspace.openEachRendition(try DocumentLoader.load(path: path), vars: values).map { rendition, outcome in
                    (rendition, outcome.flatMap { loaded in warnings.failure(loaded).map { .failure($0) } ?? .success(loaded) })
                }
                report.add(outcomes, path: path)
            } catch {
                report.fail(error)
            }
        }
        return report
    }

    /// What `reel validate` says (on standard output or standard error, in order) and how it exits.
    struct Report {
        enum Line: Equatable {
            case output(String)
            case error(String)
        }

        var lines: [Line] = []
        var status: Int32 = 0

        /// Standard output's lines.
        var output: [String] { lines.compactMap { if case .output(let text) = $0 { text } else { nil } } }
        /// Standard error's lines, joined.
        var errors: String { lines.compactMap { if case .error(let text) = $0 { text } else { nil } }.joined(separator: "\n") }

        /// The renditions of the project at `path`: their problems said once, then a line for
        /// each that is valid.
        mutating func add(_ outcomes: [(rendition: String?, outcome: Result<ProjectPipeline.Loaded, ProjectError>)], path: String) {
            let loaded = outcomes.compactMap { rendition, outcome in (try? outcome.get()).map { (rendition: rendition, project: $0) } }
            let failures = outcomes.compactMap { rendition, outcome in
                if case .failure(let error) = outcome { (rendition: rendition, error: error) } else { nil }
            }
            if !failures.isEmpty {
                fail(RenditionFindings.error(failures: failures, loaded: loaded))
            } else if let warnings = RenditionFindings.warnings(loaded) {
                lines.append(.error(warnings))
            }
            for (rendition, project) in loaded {
                lines.append(.output("\(path)\(rendition.map { " (rendition \($0))" } ?? ""): valid (\(project.graph.summary))"))
            }
        }

        mutating func fail(_ error: any Error) {
            lines.append(.error(Failure.message(for: error)))
            status = max(status, Failure.exitStatus(for: error))
        }
    }
}
