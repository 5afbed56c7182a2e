import ReelApplication
import ArgumentParser
import Foundation

/// `reel diff OLD NEW [--json] [--html FILE]`: what a change to a project does to its output.
struct Diff: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Say which seconds of video and audio a change to a project changes, and why, without rendering them.",
        discussion: """
        OLD and NEW are project files, or REV:PATH for one as of a git revision (docs/review.md). \
        \(ExitStatus.help([.success: "the outputs would be byte-identical", .failure: "they differ", .usage: "bad usage",
                            .invalidInput: "a side is invalid", .missingFile: "a side's file, revision or media is missing"]))
        """
    )

    @Argument(help: "The project before: a file, or REV:PATH (HEAD~1:promo.reel.yaml).") var old: String
    @Argument(help: "The project after: a file, or REV:PATH.") var new: String
    @Flag(help: "Print JSON: the changed ranges (seconds, and exact rationals as strings) and their causes.") var json = false
    @Option(help: ArgumentHelp("Also write a review page: both timelines, before/after stills, loudness, causes.", valueName: "file")) var html: String?
    @Flag(help: "Compare every rendition either side has.") var allRenditions = false
    @OptionGroup var vars: VarOverrides
    @OptionGroup var fetching: MediaFetching

    func validate() throws {
        if allRenditions && vars.rendition != nil { throw ValidationError("give --rendition NAME or --all-renditions, not both") }
    }

    func run() throws {
        let identical = try reportingFailures {
            let comparison = try fetching.workspace().compare(DiffRequest(old: old, new: new, vars: try vars.values(), allRenditions: allRenditions,
                                                                          cacheFolder: SegmentCache.folder(environment: ProcessInfo.processInfo.environment)))
            defer { comparison.close() }
            print(json ? comparison.json : comparison.text)
            if let html { try comparison.writePage(to: html) }
            return comparison.isIdentical
        }
        if !identical { throw ExitCode(ExitStatus.failure.rawValue) }
    }
}
