import Foundation
import ProjectFile
import Testing

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
        let elapsed = seconds {
            do { _ = try DocumentLoader.load(path: path) } catch let error as ProjectError { result = error } catch { Issue.record("\(error)") }
        }
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
        #expect(error?.diagnostics.first?.message == "the document expands to more than 100000 values")
    }

    @Test func aliasBombsUsedAsKeysAreRefusedBeforeYamsHashesThem() throws {
        for key in ["? *a9\n: x\n", "*a9 : x\n", "[*a9]: x\n", "b: {*a9 : x}\n", "b: [ *a9 : x ]\n", "- k: |\n  *a9 : x\n"] {
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
        """, name: "ok.yaml").root
        #expect(harmless["b"]?.value.debugText == "*x : y\n[a]: b\n")
    }

    @Test func aTenMegabyteStringIsRefusedBySize() throws {
        let error = try failure(writing: "title: \"" + String(repeating: "x", count: 10_000_000) + "\"\n")
        #expect(error?.category == .invalidProject)
        #expect(error?.diagnostics.first?.message == "the file is larger than 4 MiB, the limit for project files")
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
        #expect(directoryError?.exitCode == 66)
        #expect(directoryError?.diagnostics.first?.message == "\(dir.path) is a directory, not a project file")
        let missing = try failure(path: dir.appendingPathComponent("nope.yaml").path)
        #expect(missing?.category == .missingFile)
        #expect(missing?.diagnostics.first?.message.hasPrefix("no such file") == true)
    }
}

private extension Node.Value {
    var debugText: String? { if case .string(let s) = self { s } else { nil } }
}
