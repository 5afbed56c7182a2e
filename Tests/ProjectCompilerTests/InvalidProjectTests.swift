import Foundation
import ProjectCompiler
import ProjectFile
import TestSupport
import Testing

/// Each file in Fixtures/invalid says in its header what it must produce:
/// `# expect: LINE:COL text` for every diagnostic (the text is part of the message or its
/// path) and optionally `# exit: N` (65 by default). Nothing else may be reported.
@Suite struct InvalidProjectTests {
    static let fixtures: [URL] = {
        let folder = repositoryRoot.appendingPathComponent("Tests/ProjectCompilerTests/Fixtures/invalid")
        let files = (try? FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: nil)) ?? []
        return files.filter { $0.pathExtension == "yaml" || $0.pathExtension == "json" }.sorted { $0.path < $1.path }
    }()

    struct Expectation {
        var line: Int
        var column: Int
        var text: String
    }

    func header(_ url: URL) throws -> (expectations: [Expectation], exit: Int32) {
        var expectations: [Expectation] = []
        var exit: Int32 = 65
        for line in try String(contentsOf: url, encoding: .utf8).split(separator: "\n") where line.hasPrefix("#") {
            if let rest = line.split(separator: "# expect: ", maxSplits: 1).last, line.hasPrefix("# expect: ") {
                let parts = rest.split(separator: " ", maxSplits: 1)
                let position = parts[0].split(separator: ":").compactMap { Int($0) }
                expectations.append(Expectation(line: position[0], column: position[1], text: String(parts[1])))
            } else if line.hasPrefix("# exit: "), let code = Int32(line.dropFirst(8)) {
                exit = code
            }
        }
        return (expectations, exit)
    }

    @Test func thereAreFixtures() { #expect(Self.fixtures.count >= 15) }

    @Test(arguments: fixtures)
    func reportsExactlyWhatTheHeaderSays(fixture: URL) throws {
        let (expected, exitCode) = try header(fixture)
        #expect(!expected.isEmpty, "fixture without # expect lines")
        do {
            _ = try ProjectPipeline.load(path: fixture.path, media: FakeMediaFacts.promo, fonts: FakeFonts())
            Issue.record("\(fixture.lastPathComponent) compiled, but it should fail")
        } catch {
            // The headers give the exit status the command line maps each category to.
            #expect(error.category == (exitCode == 66 ? .missingFile : .invalidProject))
            let found = error.diagnostics.map { "\($0.location.line):\($0.location.column) \($0.message) [\($0.path)]" }
            for e in expected {
                let hit = error.diagnostics.contains {
                    $0.location.line == e.line && $0.location.column == e.column
                        && ($0.message.contains(e.text) || $0.path.contains(e.text))
                }
                #expect(hit, "expected \(e.line):\(e.column) '\(e.text)' in \(fixture.lastPathComponent); got:\n\(found.joined(separator: "\n"))")
            }
            #expect(error.diagnostics.count == expected.count, "\(fixture.lastPathComponent) reported:\n\(found.joined(separator: "\n"))")
            // Rendering quotes the line and puts a caret under the column.
            #expect(error.description.contains("^"))
        }
    }
}
