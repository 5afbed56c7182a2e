import ReelApplication
import ArgumentParser
import Foundation
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
                for (rendition, outcome) in workspace.openEachRendition(try DocumentLoader.load(path: path), vars: values) {
                    do {
                        let loaded = try outcome.get()
                        if let failure = warnings.failure(loaded) { throw failure }
                        if !loaded.warnings.isEmpty { report.lines.append(.error(ErrorText.warnings(loaded))) }
                        report.lines.append(.output("\(path)\(rendition.map { " (rendition \($0))" } ?? ""): valid (\(loaded.graph.summary))"))
                    } catch {
                        report.fail(error)
                    }
                }
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

        mutating func fail(_ error: any Error) {
            lines.append(.error(Failure.message(for: error)))
            status = max(status, Failure.exitStatus(for: error))
        }
    }
}
