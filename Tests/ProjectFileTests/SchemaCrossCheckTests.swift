import Foundation
import ProjectFile
import TestSupport
import Testing

/// The bundled schema is the repository's, and Swift and Python's `jsonschema` agree on
/// every example and fixture.
struct SchemaCrossCheckTests {
    static let fixtures = repositoryRoot.appendingPathComponent("Tests/ProjectFileTests/Fixtures")

    /// Every project file in Examples/ and the valid/invalid fixtures, sorted.
    static func projectFiles() -> [String] {
        let roots = [repositoryRoot.appendingPathComponent("Examples"), fixtures.appendingPathComponent("valid"), fixtures.appendingPathComponent("invalid"),
                     repositoryRoot.appendingPathComponent("Tests/ProjectCompilerTests/Fixtures/invalid")]
        var files: [String] = []
        for root in roots {
            guard let walker = FileManager.default.enumerator(atPath: root.path) else { continue }
            for case let relative as String in walker where ["yaml", "yml", "json"].contains((relative as NSString).pathExtension) {
                files.append(root.appendingPathComponent(relative).path)
            }
        }
        return files.sorted()
    }

    static func swiftVerdict(_ path: String, schema: DocumentSchema) -> Bool {
        guard let document = try? DocumentLoader.load(path: path) else { return false }
        return schema.validate(document.root).isEmpty
    }

    /// Schemas/reel.schema.json links to the bundled resource, so there is one copy; the module
    /// must find it at run time.
    @Test func bundledSchemaLoads() throws {
        let schema = try DocumentSchema.bundled()
        let promo = try DocumentLoader.load(path: repositoryRoot.appendingPathComponent("Examples/promo/project.yaml").path)
        #expect(schema.validate(promo.root).isEmpty)
    }

    @Test func fixturesHaveTheVerdictOfTheirFolder() throws {
        let schema = try DocumentSchema.bundled()
        for path in Self.projectFiles() where path.hasPrefix(Self.fixtures.path) {
            let expected = path.contains("/valid/")
            #expect(Self.swiftVerdict(path, schema: schema) == expected, "\(path)")
        }
    }

    /// Whether python3 can import jsonschema and PyYAML.
    static let pythonHasJSONSchema: Bool = {
        let python = Process()
        python.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        python.arguments = ["python3", "-c", "import jsonschema, yaml"]
        python.standardError = FileHandle.nullDevice
        guard (try? python.run()) != nil else { return false }
        python.waitUntilExit()
        return python.terminationStatus == 0
    }()

    @Test(.enabled(if: pythonHasJSONSchema, "needs python3 with jsonschema and PyYAML"))
    func swiftAndPythonAgree() throws {
        let files = Self.projectFiles()
        let script = Process()
        script.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        script.arguments = ["python3", repositoryRoot.appendingPathComponent("scripts/schema-crosscheck.py").path] + files
        let output = Pipe()
        script.standardOutput = output
        try script.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        script.waitUntilExit()
        #expect(script.terminationStatus == 0)
        let lines = text.split(separator: "\n")
        #expect(lines.count == files.count)
        let schema = try DocumentSchema.bundled()
        for line in lines {
            let parts = line.split(separator: " ", maxSplits: 1)
            let path = String(parts[1])
            let pythonValid = parts[0] == "valid"
            #expect(Self.swiftVerdict(path, schema: schema) == pythonValid, "\(path): Python says \(parts[0])")
        }
        print("schema cross-check: \(lines.count) files, same verdict in Swift and Python")
    }
}
