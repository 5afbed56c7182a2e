import Foundation
import ProjectFile
import TestSupport
import Testing

/// What the project fuzzer (ProjectCompilerTests/FuzzTests) found in the loader and the
/// diagnostics, each fixed: every diagnostic at a line and column that exist, and output
/// that stays proportional to the input.
@Suite struct FuzzFindingsTests {
    /// Lines as diagnostics count them, with the number of Unicode scalars in each.
    func lineLengths(_ text: String) -> [Int] {
        text.replacingOccurrences(of: "\r\n", with: "\n").replacingOccurrences(of: "\r", with: "\n")
            .split(separator: "\n", omittingEmptySubsequences: false).map { $0.unicodeScalars.count }
    }

    func expectInside(_ error: ProjectError?, _ text: String, _ note: String) {
        let lengths = lineLengths(text)
        #expect(error != nil, "\(note): loaded")
        for d in error?.diagnostics ?? [] {
            #expect(d.location.line >= 1 && d.location.line <= lengths.count, "\(note): \(d.location) \(d.message)")
            if d.location.line >= 1 && d.location.line <= lengths.count {
                #expect(d.location.column >= 1 && d.location.column <= lengths[d.location.line - 1] + 1, "\(note): \(d.location) \(d.message)")
            }
        }
    }

    /// libyaml reports a file cut off inside a flow collection on the line after the last one.
    @Test func aFileCutInsideAFlowCollectionIsReportedOnItsLastLine() {
        for text in ["reel: 1\noutput: { size: [640, 360], fps: 25", "reel: 1\nvideo: [[1, 2", "a: {b: [1,\n  2,\n  3"] {
            let error = loadFailure(text, format: .yaml)
            expectInside(error, text, text)
            let last = lineLengths(text).count
            #expect(error?.diagnostics.first?.location.line == last)
            #expect(error?.description.contains("^") == true)
        }
    }

    /// An empty document after `---`: libyaml puts its root on the line after the last one.
    @Test func anEmptyDocumentsRootIsInsideTheText() throws {
        for text in ["%YAML 1.2\n---\n# reel: 1\n# nothing else", "---\n", "--- \n...\n", "---"] {
            let root = try DocumentLoader.load(text: text, name: "t.yaml", format: .yaml).root
            let lengths = lineLengths(text)
            #expect(root.location.line <= lengths.count && root.location.column <= lengths[root.location.line - 1] + 1,
                    "\(text.debugDescription): \(root.location)")
        }
    }

    /// libyaml (YAML 1.1) breaks lines at NEL, LS and PS; Reel's lines (YAML 1.2, JSON, the
    /// quoted line) do not, so libyaml's marks are translated.
    @Test(arguments: ["\u{85}", "\u{2028}", "\u{2029}"])
    func unicodeLineBreaksDoNotShiftPositions(separator: String) throws {
        let text = "reel: 1\ntitle: \"a\(separator)b\" \(separator) x: 1\noutput: {size: [2, 2], fps: [}\n"
        let error = loadFailure(text, format: .yaml)
        expectInside(error, text, "separator \(separator.unicodeScalars.first!.value)")
        // A node after the separator, on the same Reel line: its column counts the separator as one character.
        let ok = "a: \"x\(separator)y\"\nb: [1, 2]\n"
        let root = try DocumentLoader.load(text: ok, name: "t.yaml", format: .yaml).root
        #expect(root["b"]?.location == SourceLocation(file: "t.yaml", line: 2, column: 4))
    }

    /// A value repeated many times in one string gives one diagnostic, not one per use.
    @Test func aBrokenReferenceRepeatedInOneStringIsReportedOnce() throws {
        let path = String(repeating: "{{ a }}", count: 10_000)
        let document = try DocumentLoader.load(text: "reel: 1\ntitle: \"\(path)\"\nother: \"{{ b }}{{ b }}{{ 1x }}{{ 1x }}\"\n", name: "t.yaml")
        let (_, problems) = VarsSubstitution(document: document.root).apply(to: document.root)
        #expect(problems.map(\.message).sorted() == ["'{{ 1x }}' in other is not a valid var reference", "unknown var 'a' in title", "unknown var 'b' in other"])
    }

    /// A diagnostic on a very long line quotes a window around its column, so 10 000 errors
    /// on a 1 MB line do not print that line 10 000 times.
    @Test func longLinesAreQuotedAroundTheColumn() {
        let line = String(repeating: "x", count: 5000) + "HERE" + String(repeating: "y", count: 5000)
        let source = SourceText(name: "t.yaml", text: "a: 1\n" + line + "\n")
        let diagnostic = Diagnostic(location: SourceLocation(file: "t.yaml", line: 2, column: 5001), path: "", message: "bad")
        let text = DiagnosticRenderer(sources: [source]).render(diagnostic)
        let lines = text.split(separator: "\n")
        #expect(lines.count == 3 && text.utf8.count < 500, "\(text.utf8.count) bytes")
        // The caret is under the H.
        let quoted = lines[1].unicodeScalars.map { $0 }, caret = lines[2].unicodeScalars.map { $0 }
        #expect(quoted[caret.count - 1] == "H", "\(text)")
        #expect(lines[1].hasSuffix("…") && lines[1].contains("…x"))
        // Short lines are quoted whole, as before.
        let short = DiagnosticRenderer(sources: [source]).render(Diagnostic(location: SourceLocation(file: "t.yaml", line: 1, column: 4), path: "", message: "m"))
        #expect(short == "t.yaml:1:4: error: m\n 1 | a: 1\n   |    ^\n")
    }

    /// An unknown key of 600 000 characters: "did you mean" compared it with every allowed key
    /// by edit distance (seconds of CPU and 50 MB); keys too different in length are skipped.
    @Test func aHugeUnknownKeyIsReportedQuickly() throws {
        let key = String(repeating: "a b ", count: 150_000)
        let document = try DocumentLoader.load(text: "{\"reel\": 1,\n\"\(key)\": 1, \"medai\": {}}", name: "t.json")
        let schema = try DocumentSchema.bundled()
        var problems: [Diagnostic] = []
        let elapsed = threadCPUSeconds { problems = schema.validate(document.root) }
        #expect(elapsed < 0.5, "\(elapsed) s")
        #expect(problems.contains { $0.message.hasPrefix("unknown key '") && $0.location.line == 2 })
        // Near misses still get their suggestion.
        #expect(problems.contains { $0.message.contains("unknown key 'medai'") && $0.message.contains("did you mean 'media'") })
    }
}
