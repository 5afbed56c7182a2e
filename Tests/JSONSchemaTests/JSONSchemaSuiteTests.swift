import Foundation
import JSONSchema
import ProjectFile
import TestSupport
import Testing

/// Runs the official JSON-Schema-Test-Suite (draft 2020-12) from ../shared/testdata, on
/// trees read by ProjectFile's `DocumentLoader` (exact numbers, keys in order).
struct JSONSchemaSuiteTests {
    static let suite = repositoryRoot.appendingPathComponent("../shared/testdata/json-schema-test-suite").standardizedFileURL

    /// Suite files this validator does not claim, with the reason (every core file is claimed).
    static let notClaimed: [String: String] = [
        "optional/cross-draft.json": "refs into draft 2019-09 / draft 7 schemas are evaluated as 2020-12",
        "optional/dependencies-compatibility.json": "the pre-2019 `dependencies` keyword is not implemented (use dependentRequired/dependentSchemas)",
        "optional/format-assertion.json": "`format` is an annotation only, never an assertion",
    ]

    /// Documents a `$ref` may fetch: the suite's remotes (served at http://localhost:1234/).
    /// and the draft 2020-12 meta-schemas (kept in Fixtures/metaschemas).
    static func remote(_ uri: String) -> Node? {
        let served = [
            ("http://localhost:1234/", suite.appendingPathComponent("remotes")),
            ("https://json-schema.org/draft/2020-12/", repositoryRoot.appendingPathComponent("Tests/JSONSchemaTests/Fixtures/metaschemas/draft2020-12")),
        ]
        for (prefix, folder) in served where uri.hasPrefix(prefix) {
            var path = folder.appendingPathComponent(String(uri.dropFirst(prefix.count))).path
            if !path.hasSuffix(".json") { path += ".json" }
            return try? DocumentLoader.load(path: path).root
        }
        return nil
    }

    struct FileResult {
        var passed = 0
        var total = 0
        var failures: [String] = []
    }

    static func run(file: URL) throws -> FileResult {
        var result = FileResult()
        let groups = try DocumentLoader.load(path: file.path).root
        guard case .array(let groupNodes) = groups.value else { return result }
        for group in groupNodes {
            guard let schemaNode = group["schema"], case .array(let tests)? = group["tests"]?.value else { continue }
            let groupName = group["description"]?.stringValue ?? "?"
            let schema: Schema<Node>
            do {
                schema = try Schema(schemaNode, baseURI: "urn:suite:schema", remote: remote)
            } catch {
                result.total += tests.count
                result.failures.append("\(groupName): schema did not compile: \(error.problems.map(\.message))")
                continue
            }
            for test in tests {
                result.total += 1
                guard let data = test["data"], case .bool(let expected)? = test["valid"]?.value else { continue }
                let problems = schema.validate(data)
                if problems.isEmpty == expected {
                    result.passed += 1
                } else {
                    let name = test["description"]?.stringValue ?? "?"
                    result.failures.append("\(groupName) / \(name): expected \(expected ? "valid" : "invalid"), got \(problems.map(\.message))")
                }
            }
        }
        return result
    }

    static let draft2020_12Folder = suite.appendingPathComponent("tests/draft2020-12")

    @Test(.enabled(if: FileManager.default.fileExists(atPath: draft2020_12Folder.path), "needs JSON-Schema-Test-Suite in ../shared/testdata"))
    func draft2020_12() throws {
        let folder = Self.draft2020_12Folder
        // The core files, then optional/ (its format/ folder tests format assertion: not run).
        let core = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".json") }.sorted()
        let optional = try FileManager.default.contentsOfDirectory(atPath: folder.appendingPathComponent("optional").path)
            .filter { $0.hasSuffix(".json") }.sorted().map { "optional/" + $0 }
        let files = core + optional
        var claimedPassed = 0, claimedTotal = 0
        for name in files {
            let result = try Self.run(file: folder.appendingPathComponent(name))
            if let reason = Self.notClaimed[name] {
                print("suite \(name): \(result.passed)/\(result.total) (not claimed: \(reason))")
                continue
            }
            print("suite \(name): \(result.passed)/\(result.total)")
            claimedPassed += result.passed
            claimedTotal += result.total
            #expect(result.failures.isEmpty, "\(name): \(result.failures.joined(separator: "\n"))")
        }
        print("suite total (claimed files): \(claimedPassed)/\(claimedTotal)")
        #expect(claimedPassed == claimedTotal)
        #expect(claimedTotal >= 1420)  // guards against a suite that silently ran nothing
    }
}
