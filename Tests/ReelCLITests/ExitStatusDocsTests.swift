import Foundation
@testable import reel
import TestSupport
import Testing

/// The docs quote exit statuses in prose; the numbers come from one table (`ExitStatus`), and
/// a number the table does not have is a doc that drifted.
struct ExitStatusDocsTests {
    /// Every number the docs give as an exit status (`exit 65`, `exits 66`, `exit status 73`,
    /// `Exit statuses: 64 …, 66 …`, `0, 1, or 65/66/73`) is one of the table's.
    @Test func everyExitNumberInTheDocsIsInTheTable() throws {
        let known = Set(ExitStatus.allCases.map(\.rawValue))
        let docs = try FileManager.default.contentsOfDirectory(atPath: repositoryRoot.appendingPathComponent("docs").path)
            .filter { $0.hasSuffix(".md") } + ["../README.md"]
        // "exit"/"exits"/"exit status"/"exit code(s)"/"exit statuses", then a run of numbers
        // joined by commas, slashes, "or" and "and" (with the words between numbers in a list).
        let pattern = try Regex(#"(?i)\bexit(?:s|\s+status(?:es)?|\s+codes?)?:?\s+(\d+(?:(?:\s*(?:,|/|or|and)\s*|\s+[a-z][^,.;()\d]{0,80},\s*)\d+)*)"#)
        var unknown: [String] = []
        var checked = 0
        for name in docs {
            let text = try String(contentsOf: repositoryRoot.appendingPathComponent("docs").appendingPathComponent(name), encoding: .utf8)
            for match in text.matches(of: pattern) {
                let numbers = String(text[match.range]).matches(of: /\b\d+\b/).compactMap { Int32($0.output) }
                checked += numbers.count
                unknown += numbers.filter { !known.contains($0) }.map { "\(name): \($0) in \"\(text[match.range])\"" }
            }
        }
        #expect(checked > 40, "the pattern found only \(checked) exit numbers in the docs")
        #expect(unknown.isEmpty, "\(unknown.joined(separator: "\n"))")
    }

    /// format.md's list of exit codes names every status of the table.
    @Test func theFormatDocListsEveryStatus() throws {
        let text = try String(contentsOf: repositoryRoot.appendingPathComponent("docs/format.md"), encoding: .utf8)
        let start = try #require(text.range(of: "Exit codes:"))
        let paragraph = String(text[start.upperBound...]).components(separatedBy: "\n\n")[0]
        let listed = Set(paragraph.matches(of: /\b(\d+) [a-z]/).compactMap { Int32($0.output.1) })
        let missing = ExitStatus.allCases.filter { !listed.contains($0.rawValue) }
        #expect(missing.isEmpty, "format.md's exit codes lack \(missing)")
    }
}
