/// The two files that describe the project format beside the decoder, with their catalogues'
/// parts made from the Swift declarations (`SchemaFragment`, `FormatTable`): what
/// `scripts/generate-format` writes, and what a test checks is written.
public enum FormatFiles {
    /// Paths relative to the repository.
    public static let schemaPath = "Sources/ProjectFile/Resources/reel.schema.json"
    public static let formatPath = "docs/format.md"

    /// Why a file cannot be regenerated: a part the generator replaces is not where it looks.
    public struct Problem: Error, CustomStringConvertible {
        public let description: String
    }

    /// The schema text with every generated part made anew; the rest stays byte for byte.
    public static func schema(from text: String) throws -> String {
        var document = try SchemaText(parsing: text)
        for fragment in SchemaFragment.all {
            guard !document.replace(at: fragment.path, with: fragment.value, after: fragment.after) else { continue }
            throw Problem(description: "\(schemaPath): \(fragment.pointer) is not in the schema, so the generated \(fragment.catalogue.noun)s "
                + "have no place there; put the part back (git show HEAD:\(schemaPath)), then run scripts/generate-format")
        }
        for stale in staleDefinitions(in: document) { document.remove(stale, at: ["$defs"]) }
        return document.printed() + "\n"
    }

    /// docs/format.md with every generated table made anew between its markers.
    public static func format(from text: String) throws -> String {
        var lines = text.components(separatedBy: "\n")
        for table in FormatTable.all {
            guard let range = markedLines(table, in: lines) else { throw missingMarkers(table) }
            lines.replaceSubrange(range, with: [table.startMarker] + table.text.components(separatedBy: "\n") + [table.endMarker])
        }
        return lines.joined(separator: "\n")
    }

    /// What the committed files lack against the declarations, one message a difference
    /// (`docs/format.md: transition `wipe-left` missing from the transitions table; run
    /// scripts/generate-format`); empty when both are as generated.
    public static func differences(schema: String, format: String) -> [String] {
        schemaDifferences(schema) + formatDifferences(format)
    }

    private static let rerun = "run scripts/generate-format"

    /// The `$defs` entries the generator once wrote that no declaration makes any more (the
    /// definition of a look that was removed).
    static func staleDefinitions(in document: SchemaText) -> [String] {
        let generated = Set(SchemaFragment.all.filter { $0.path.count == 2 && $0.path[0] == "$defs" }.map { $0.path[1] })
        return document.keys(at: ["$defs"], commentedWith: SchemaFragment.commentPrefix).filter { !generated.contains($0) }
    }

    private static func schemaDifferences(_ text: String) -> [String] {
        let document: SchemaText
        do { document = try SchemaText(parsing: text) } catch { return ["\(schemaPath): \(error)"] }
        var messages = staleDefinitions(in: document).map { "\(schemaPath): $defs/\($0) was generated, but nothing declares it now; \(rerun)" }
        messages += SchemaFragment.all.flatMap { fragment -> [String] in
            guard let written = document[fragment.path] else {
                return ["\(schemaPath): \(fragment.pointer) is missing (from \(fragment.catalogue.source)); \(rerun)"]
            }
            guard written != fragment.value else { return [] }
            let printed = written.printed(), generated = fragment.value.printed()
            let missing = fragment.catalogue.names.filter { occurrences(of: $0, in: printed) < occurrences(of: $0, in: generated) }
            guard missing.isEmpty else {
                return missing.map { "\(schemaPath): \(fragment.catalogue.noun) `\($0)` missing from \(fragment.pointer); \(rerun)" }
            }
            return ["\(schemaPath): \(fragment.pointer) differs from what \(fragment.catalogue.source) generates "
                + "(a name there that is not declared, or other words); \(rerun)"]
        }
        // Every generated part as it should be, yet the file is not as printed: its layout changed.
        if messages.isEmpty, let regenerated = try? schema(from: text), regenerated != text {
            messages.append("\(schemaPath): not laid out as scripts/generate-format writes it (one key or item a line, two spaces a level); \(rerun)")
        }
        return messages
    }

    private static func formatDifferences(_ text: String) -> [String] {
        let lines = text.components(separatedBy: "\n")
        return FormatTable.all.flatMap { table -> [String] in
            guard let range = markedLines(table, in: lines) else { return [missingMarkers(table).description] }
            let written = lines[range].dropFirst().dropLast().joined(separator: "\n")
            guard written != table.text || lines[range.lowerBound] != table.startMarker else { return [] }
            let missing = table.catalogue.names.filter { occurrences(of: "`\($0)`", in: written) < occurrences(of: "`\($0)`", in: table.text) }
            guard missing.isEmpty else {
                return missing.map { "\(formatPath): \(table.catalogue.noun) `\($0)` missing from the \(table.name) table; \(rerun)" }
            }
            return ["\(formatPath): the \(table.name) table differs from what \(table.catalogue.source) generates "
                + "(a row that is not declared, or other words); \(rerun)"]
        }
    }

    /// How often `name` stands as a whole name in `text` (not `ease-in` in `ease-in-out`, nor
    /// `lut` in `lut_filter`): fewer times than in the generated text means it is missing there.
    static func occurrences(of name: String, in text: String) -> Int {
        func partOfAName(_ c: Character?) -> Bool { c.map { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" } ?? false }
        var count = 0, rest = text[...]
        while let found = rest.range(of: name) {
            let before = found.lowerBound > text.startIndex ? text[text.index(before: found.lowerBound)] : nil
            let after = found.upperBound < text.endIndex ? text[found.upperBound] : nil
            if !partOfAName(before), !partOfAName(after) { count += 1 }
            rest = text[found.upperBound...]
        }
        return count
    }

    /// The lines from a table's start marker to its end marker, both included.
    private static func markedLines(_ table: FormatTable, in lines: [String]) -> ClosedRange<Int>? {
        guard let start = lines.firstIndex(where: { $0.hasPrefix(table.startPrefix) }),
              let end = lines[start...].firstIndex(of: table.endMarker) else { return nil }
        return start...end
    }

    private static func missingMarkers(_ table: FormatTable) -> Problem {
        Problem(description: "\(formatPath): no lines `\(table.startPrefix)…-->` and `\(table.endMarker)` around the \(table.name) table; "
            + "put them where the table goes, then \(rerun)")
    }
}
