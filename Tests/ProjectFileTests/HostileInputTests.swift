import Foundation
import ProjectFile
import Testing
import TestSupport

/// Each hostile file must end in a clear error, quickly, without crashing or hanging.
struct HostileInputTests {
    static let budget = 1.0

    /// Loads `text` from a real file and returns the error, checking the time budget.
    private func failure(writing text: String, named name: String = "hostile.yaml") throws -> ProjectError? {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let url = dir.appendingPathComponent(name)
        try Data(text.utf8).write(to: url)
        return try failure(path: url.path)
    }

    private func failure(path: String) throws -> ProjectError? {
        var result: ProjectError?
        let elapsed = threadCPUSeconds {
            do { _ = try DocumentLoader.load(path: path) } catch let error as ProjectError { result = error } catch { Issue.record("\(error)") }
        }
        print("hostile input \((path as NSString).lastPathComponent): \(String(format: "%.3f", elapsed)) s, \(result?.diagnostics.first?.message ?? "no error")")
        #expect(elapsed < Self.budget, "took \(elapsed) s")
        return result
    }

    private static let laughs: String = {
        var text = "a0: &a0 [lol, lol, lol, lol, lol, lol, lol, lol, lol]\n"
        for i in 1...9 {
            text += "a\(i): &a\(i) [" + Array(repeating: "*a\(i - 1)", count: 9).joined(separator: ", ") + "]\n"
        }
        return text
    }()

    @Test func billionLaughsStopsAtTheNodeLimit() throws {
        let error = try failure(writing: Self.laughs)
        #expect(error?.category == .invalidProject)
        #expect(error?.diagnostics.first?.message == "the document expands to more than 1000000 values (REEL_PROJECT_MAX_VALUES sets it)")
    }

    @Test func aliasBombsUsedAsKeysAreRefusedBeforeYamsHashesThem() throws {
        for key in ["? *a9\n: x\n", "*a9 : x\n", "*a9: x\n", "[*a9]: x\n", "b: {*a9 : x}\n", "b: {*a9}\n", "b: {c: 1, *a9}\n",
                    "b: {{*a9}}\n", "b: [ *a9 : x ]\n", "- k: |\n  *a9 : x\n"] {
            let error = try failure(writing: Self.laughs + key)
            #expect(error?.category == .invalidProject, "\(key)")
            let message = error?.diagnostics.first?.message ?? ""
            #expect(message.contains("key"), "\(key): \(message)")
            #expect(error?.diagnostics.first?.location.line == (key.hasPrefix("- k") ? 12 : 11), "\(key)")
        }
        // Quoted text, comments and block scalars that merely look like keys are fine.
        let harmless = try DocumentLoader.load(text: """
        a: "? *x : y"   # ? *x : y
        b: |
          *x : y
          [a]: b
        c: 'it''s [1]: fine'
        d: &d [1]
        e: {f: *d, g: [*d], h: {i: *d}}
        """, name: "ok.yaml").root
        #expect(harmless["e"]?["h"]?["i"].map { if case .array = $0.value { true } else { false } } == true)
        #expect(harmless["b"]?.value.debugText == "*x : y\n[a]: b\n")
    }

    @Test func aTenMegabyteStringIsRefusedBySize() throws {
        let error = try failure(writing: "title: \"" + String(repeating: "x", count: 10_000_000) + "\"\n")
        #expect(error?.category == .invalidProject)
        #expect(error?.diagnostics.first?.message == "the file is larger than 6 MiB, the limit for project files (REEL_PROJECT_MAX sets it)")
    }

    /// Files just under the size limit that are slow to scan or parse, each of them valid YAML.
    @Test func largestFilesLoadOrFailQuickly() throws {
        let size = LoadLimits().maxFileBytes - 16
        let fillers = [
            "a: " + String(repeating: "x", count: size),             // one long plain scalar
            String(repeating: "\n", count: size) + "a: 1\n",           // blank lines
            String(repeating: "# comment\n", count: size / 10),      // comment lines
            "- " + String(repeating: "[", count: size / 2),           // brackets (stops at the node limit)
            String(repeating: "- a\n", count: size / 4),              // many small values (idem)
        ]
        for (index, text) in fillers.enumerated() {
            let elapsed = try threadCPUSeconds { _ = try? DocumentLoader.load(text: text, name: "filler\(index).yaml") }
            print("filler \(index): \(String(format: "%.3f", elapsed)) s")
            #expect(elapsed < Self.budget, "filler \(index) took \(elapsed) s")
        }
    }

    @Test func deepNestingIsRefusedInYamlAndJson() throws {
        for depth in [1000, 100_000] {
            let flow = String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
            let yamlError = try failure(writing: flow, named: "deep.yaml")
            #expect(yamlError?.category == .invalidProject)
            let jsonError = try failure(writing: flow, named: "deep.json")
            #expect(jsonError?.diagnostics.first?.message == "nesting is deeper than 64 levels")
            #expect(jsonError?.diagnostics.first?.location.column == 65)
        }
        var block = ""
        for level in 0..<500 { block += String(repeating: " ", count: level) + "k:\n" }
        let blockError = try failure(writing: block, named: "deep-block.yaml")
        #expect(blockError?.diagnostics.first?.message == "nesting is deeper than 64 levels")
        #expect(blockError?.diagnostics.first?.location.line == 65)
    }

    @Test func binaryGarbageInvalidUtf8AndEmptyFiles() throws {
        var generator = SystemRandomNumberGenerator()
        var garbage = Data((0..<65_536).map { _ in UInt8.random(in: 0...255, using: &generator) })
        garbage[0] = 0xFF  // never valid UTF-8
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let binary = dir.appendingPathComponent("garbage.yaml")
        try garbage.write(to: binary)
        let binaryError = try failure(path: binary.path)
        #expect(binaryError?.diagnostics.first?.message.hasPrefix("the file is not UTF-8 text") == true)

        let latin1 = dir.appendingPathComponent("latin1.yaml")
        try Data("title: caf".utf8 + [0xE9] + Data("\n".utf8)).write(to: latin1)
        #expect(try failure(path: latin1.path)?.diagnostics.first?.location == SourceLocation(file: latin1.path, line: 1, column: 11))

        let nul = try failure(writing: "a: b\n\0\0\0")
        #expect(nul?.diagnostics.first?.message.contains("NUL") == true)

        for empty in ["", "\n\n  \n", "# only a comment\n"] {
            let error = try failure(writing: empty)
            #expect(error?.category == .invalidProject)
            #expect(error?.diagnostics.first?.message.contains("empty") == true || error?.diagnostics.first?.message.contains("no YAML document") == true)
        }
        #expect(try failure(writing: "", named: "empty.json")?.diagnostics.first?.message == "the file is empty")
    }

    @Test func directoriesAndMissingFilesAreMissingFileErrors() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let directoryError = try failure(path: dir.path)
        #expect(directoryError?.category == .missingFile)
        #expect(directoryError?.diagnostics.first?.message == "\(dir.path) is a folder, not a file")
        let missing = try failure(path: dir.appendingPathComponent("nope.yaml").path)
        #expect(missing?.category == .missingFile)
        #expect(missing?.diagnostics.first?.message.hasPrefix("no such file") == true)
    }
}

private extension Node.Value {
    var debugText: String? { if case .string(let s) = self { s } else { nil } }
}

struct AliasTests {
    @Test func aliasesShareTheirAnchorsTreeAndCountEveryUse() throws {
        let root = try yaml("""
        style: &title { font: DejaVu Sans, size: 96 }
        overlays:
          - style: *title
          - style: *title
        """)
        guard case .array(let overlays)? = root["overlays"]?.value else { Issue.record("no overlays"); return }
        #expect(overlays.count == 2)
        #expect(overlays[1]["style"]?["size"].map { if case .number("96") = $0.value { true } else { false } } == true)
        // Every use counts: root, a, 1, 2, 3, b and 4 per alias: 14 values with two uses, 18 with three.
        let limited = LoadLimits(maxNodes: 14)
        #expect(throws: ProjectError.self) {
            _ = try DocumentLoader.load(text: "a: &x [1, 2, 3]\nb: [*x, *x, *x]\n", name: "t.yaml", limits: limited)
        }
        #expect(try DocumentLoader.load(text: "a: &x [1, 2, 3]\nb: [*x, *x]\n", name: "t.yaml", limits: limited).root["b"] != nil)
    }

    @Test func anAliasCannotHideDepth() throws {
        let limited = LoadLimits(maxDepth: 3)
        // The anchor itself sits at depth 1 (fine); reused at depth 3 it would nest to depth 4.
        let text = "a: &x [[1]]\nb: [[*x]]\n"
        #expect(throws: ProjectError.self) { _ = try DocumentLoader.load(text: text, name: "t.yaml", limits: limited) }
        #expect(try DocumentLoader.load(text: "a: &x [[1]]\nb: *x\n", name: "t.yaml", limits: limited).root["b"] != nil)
    }
}

/// Random YAML-like text after an alias-bomb preamble: whatever the pre-scan lets through,
/// Yams must never get to hash an expanded bomb, so every load stays fast.
struct RandomAliasKeyTests {
    @Test func randomTextAfterABombLoadsQuickly() {
        var preamble = "a0: &a0 [lol, lol, lol, lol, lol, lol, lol, lol, lol]\n"
        for i in 1...9 { preamble += "a\(i): &a\(i) [" + Array(repeating: "*a\(i - 1)", count: 9).joined(separator: ", ") + "]\n" }
        let tokens = ["*a9", "*a9 ", "*a9:", "*a9: ", "? ", "?", ": ", ":", "- ", "[", "]", "{", "}", ", ", "\n", "\n  ", "\n    ", " ", "k", "v: ",
                      "\"", "'", "#", "|", ">", "&b ", "!!str ", "\\", "\t", "x"]
        var generator = SplitMix64(seed: 2026)
        var slowest = 0.0
        for _ in 0..<3000 {
            let body = (0..<Int.random(in: 1...12, using: &generator)).map { _ in tokens.randomElement(using: &generator)! }.joined()
            let elapsed = threadCPUSeconds { _ = try? DocumentLoader.load(text: preamble + body, name: "random.yaml") }
            slowest = max(slowest, elapsed)
            #expect(elapsed < 0.5, "slow: \(body.debugDescription)")
        }
        print("random alias-key texts: slowest load \(String(format: "%.3f", slowest)) s")
    }
}
