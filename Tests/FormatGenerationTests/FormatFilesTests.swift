import Foundation
import Testing
import ProjectFile
@testable import FormatGeneration

/// The schema's catalogue parts and docs/format.md's catalogue tables are what the Swift
/// declarations make (scripts/generate-format), and a stale file is named with what it lacks.
@Suite struct FormatFilesTests {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static func committed(_ path: String) throws -> String {
        try String(contentsOf: repository.appendingPathComponent(path), encoding: .utf8)
    }

    @Test func committedFilesAreAsGenerated() throws {
        let differences = FormatFiles.differences(schema: try Self.committed(FormatFiles.schemaPath), format: try Self.committed(FormatFiles.formatPath))
        #expect(differences.isEmpty, "\(differences.joined(separator: "\n"))")
    }

    @Test func theSchemaPrintsAsItIsWritten() throws {
        let text = try Self.committed(FormatFiles.schemaPath)
        #expect(try SchemaText(parsing: text).printed() + "\n" == text)
    }

    @Test func aTableWithoutATransitionNamesIt() throws {
        let format = try Self.committed(FormatFiles.formatPath)
        let stale = format.components(separatedBy: "\n").filter { !$0.hasPrefix("| `wipe-left` |") }.joined(separator: "\n")
        #expect(stale != format)
        #expect(FormatFiles.differences(schema: try Self.committed(FormatFiles.schemaPath), format: stale)
            == ["docs/format.md: transition `wipe-left` missing from the transitions table; run scripts/generate-format"])
        #expect(try FormatFiles.format(from: stale) == format)
    }

    @Test func aSchemaWithoutALookNamesEveryPlaceItIsMissing() throws {
        let schema = try Self.committed(FormatFiles.schemaPath)
        var document = try SchemaText(parsing: schema)
        let withoutFromFilter = document.replace(at: ["$defs", "filter", "properties", "type", "anyOf", "0", "enum"], with: .strings(["blur", "color", "lut"]))
        let withoutFromFilters = document.replace(at: ["$defs", "filters", "description"], with: .string("Looks: blur, color, lut."))
        #expect(withoutFromFilter && withoutFromFilters)
        let stale = document.printed() + "\n"
        #expect(FormatFiles.differences(schema: stale, format: try Self.committed(FormatFiles.formatPath)) == [
            "Sources/ProjectFile/Resources/reel.schema.json: look `chroma_key` missing from $defs/filters; run scripts/generate-format",
            "Sources/ProjectFile/Resources/reel.schema.json: look `chroma_key` missing from $defs/filter; run scripts/generate-format",
        ])
        #expect(try FormatFiles.schema(from: stale) == schema)
    }

    @Test func aNewLookGetsItsDefinitionAfterTheOthers() throws {
        let schema = try Self.committed(FormatFiles.schemaPath)
        var document = try SchemaText(parsing: schema)
        guard case .object(var definitions) = document[["$defs"]] else { Issue.record("no $defs"); return }
        definitions.removeAll { $0.key == jsonStringLiteral("chroma_key_filter") }
        let removed = document.replace(at: ["$defs"], with: .object(definitions))
        #expect(removed)
        let stale = document.printed() + "\n"
        #expect(FormatFiles.differences(schema: stale, format: try Self.committed(FormatFiles.formatPath))
            == ["Sources/ProjectFile/Resources/reel.schema.json: $defs/chroma_key_filter is missing (from Look.all (Sources/Looks)); run scripts/generate-format"])
        #expect(try FormatFiles.schema(from: stale) == schema)
    }

    @Test func anEntryNotDeclaredIsADifference() throws {
        let format = try Self.committed(FormatFiles.formatPath)
        let stale = format.replacingOccurrences(of: "| `hold` |", with: "| `hold` | stays |\n| `bounce` |")
        #expect(FormatFiles.differences(schema: try Self.committed(FormatFiles.schemaPath), format: stale)
            == ["docs/format.md: the easings table differs from what Easing.named (Sources/CompositionGraph/Animation.swift) generates "
                + "(a row that is not declared, or other words); run scripts/generate-format"])
    }

    @Test func namesAreCountedWhole() {
        #expect(FormatFiles.occurrences(of: "ease-in", in: "ease-in | ease-in-out | ease-in.") == 2)
        #expect(FormatFiles.occurrences(of: "lut", in: "\"lut\", \"#/$defs/lut_filter\"") == 1)
    }

    @Test func aTableWithoutItsMarkersIsAProblem() throws {
        let format = try Self.committed(FormatFiles.formatPath).replacingOccurrences(of: "<!-- end generated: easings -->", with: "")
        #expect(throws: FormatFiles.Problem.self) { try FormatFiles.format(from: format) }
        #expect(FormatFiles.differences(schema: try Self.committed(FormatFiles.schemaPath), format: format).contains {
            $0.hasPrefix("docs/format.md: no lines `<!-- generated: easings, …-->`")
        })
    }
}
