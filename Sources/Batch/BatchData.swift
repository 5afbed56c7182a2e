import Foundation
import RegularFiles
import ProjectFile

/// One row of batch data: values for the project's vars (and for the output template).
public struct BatchRow: Sendable {
    /// 1-based, in file order (a CSV's header is not a row).
    public var number: Int
    /// In column order; each value is located where it is written in the data file.
    public var values: [VarOverride]
    /// Problems with the row itself (a CSV row with the wrong number of fields, a JSON row
    /// that is not an object); such a row is skipped. Messages say "this row": the batch
    /// names the row when it reports them.
    public var problems: [Diagnostic]
}

/// The rows of a batch data file: CSV with a header row of var names (`.csv`), a JSON or
/// YAML list of objects (`.json`, `.yaml`, `.yml`), or JSON Lines, one object a line
/// (`.jsonl`, `.ndjson`).
public struct BatchData: Sendable {
    public var rows: [BatchRow]
    /// The file's text, for quoting it in diagnostics.
    public var source: SourceText
    /// How the caller's user named the file (a command-line option, a request field), for
    /// messages about it; nil: "the rows file".
    public var input: String?

    public static func load(path: String, input: String? = nil) throws(ProjectError) -> BatchData {
        var data = try read(path: path)
        data.input = input
        return data
    }

    private static func read(path: String) throws(ProjectError) -> BatchData {
        let ext = (path as NSString).pathExtension.lowercased()
        switch ext {
        case "csv":
            let text = try readText(path)
            return BatchData(rows: try csvRows(CSVReader.read(text, file: path), file: path), source: SourceText(name: path, text: text))
        case "jsonl", "ndjson":
            let text = try readText(path)
            return BatchData(rows: jsonLinesRows(text, file: path), source: SourceText(name: path, text: text))
        case "json", "yaml", "yml":
            let document = try DocumentLoader.load(path: path)
            return try rows(of: document.root, source: document.source, holder: "this file")
        default:
            throw ProjectError(.usage, Diagnostic(location: .commandLine(path), path: "",
                message: "cannot tell the format of \(path) from its extension",
                hint: "use .csv (with a header row), .json or .yaml (a list of objects) or .jsonl (one object a line)"))
        }
    }

    /// The rows of `list`, a list of objects (one per row) read from `source`, already loaded (a
    /// service's request); `holder` is what holds the list, as messages name it ("the field rows").
    public static func rows(of list: Node, source: SourceText, input: String? = nil, holder: String) throws(ProjectError) -> BatchData {
        guard case .array(let items) = list.value else {
            throw ProjectError(.invalidProject, Diagnostic(location: list.location, path: "",
                message: "batch data must be a list of objects (one per row); \(holder) holds \(list.excerpt)",
                hint: "write [{\"name\": \"Widget\", \"price\": 9.99}, ...]"), source: source)
        }
        return BatchData(rows: items.enumerated().map { objectRow($1, number: $0 + 1) }, source: source, input: input)
    }

    private static func readText(_ path: String) throws(ProjectError) -> String {
        let start = SourceLocation(file: path, line: 1, column: 1)
        if case .notAFile(let kind)? = RegularFile.problem(at: path) {
            throw ProjectError(.missingFile, Diagnostic(location: start, path: "", message: "cannot read \(path): it is \(kind), not a file",
                                                        hint: "name the CSV, JSON or YAML file of rows itself"))
        }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw ProjectError(.missingFile, Diagnostic(location: start, path: "", message: "cannot read \(path): no such file, or not readable"))
        }
        guard let text = String(data: data, encoding: .utf8) else {
            throw ProjectError(.invalidProject, Diagnostic(location: start, path: "", message: "\(path) is not UTF-8 text",
                                                           hint: "save the file as UTF-8 (spreadsheets offer \"CSV UTF-8\")"))
        }
        return text
    }

    static func csvRows(_ records: [[CSVReader.Field]], file: String) throws(ProjectError) -> [BatchRow] {
        guard let header = records.first else {
            throw ProjectError(.invalidProject, Diagnostic(location: SourceLocation(file: file, line: 1, column: 1), path: "",
                message: "the CSV file is empty", hint: "the first line names the vars: name,price,colour"))
        }
        var seen: Set<String> = []
        for column in header {
            let name = column.text.trimmingCharacters(in: .whitespaces)
            guard !name.isEmpty, seen.insert(name).inserted else {
                throw ProjectError(.invalidProject, Diagnostic(location: column.location, path: "",
                    message: name.isEmpty ? "a column of the header row has no name" : "the header names column '\(name)' twice",
                    hint: "the first line names each column once, with the var it sets"))
            }
        }
        let names = header.map { $0.text.trimmingCharacters(in: .whitespaces) }
        return records.dropFirst().enumerated().map { index, fields in
            var row = BatchRow(number: index + 1, values: [], problems: [])
            if fields.count != names.count {
                row.problems.append(Diagnostic(location: fields[0].location, path: "",
                    message: "this row has \(fields.count) field\(fields.count == 1 ? "" : "s"); the header names \(names.count) columns",
                    hint: "quote a field that holds a comma: \"Widget, large\""))
            }
            row.values = zip(names, fields).map { VarOverride(name: $0, input: .text($1.text), location: $1.location) }
            return row
        }
    }

    private static func objectRow(_ node: Node, number: Int) -> BatchRow {
        guard let values = VarOverride.members(of: node) else {
            return BatchRow(number: number, values: [], problems: [Diagnostic(location: node.location, path: "",
                message: "this row is \(node.excerpt), not an object of var names and values")])
        }
        return BatchRow(number: number, values: values, problems: [])
    }

    private static func jsonLinesRows(_ text: String, file: String) -> [BatchRow] {
        var rows: [BatchRow] = []
        let lines = text.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" || $0 == "\r" })
        for (index, line) in lines.enumerated() where !line.allSatisfy(\.isWhitespace) {
            let number = rows.count + 1
            do throws(ProjectError) {
                let root = try DocumentLoader.load(text: String(line), name: file, format: .json).root
                rows.append(objectRow(root.shifted(lines: index), number: number))
            } catch {
                rows.append(BatchRow(number: number, values: [], problems: error.diagnostics.map {
                    var d = $0
                    d.location.line += index
                    return d
                }))
            }
        }
        return rows
    }
}

extension Node {
    /// The same tree placed `lines` lines further down (a JSON Lines record read on its own).
    func shifted(lines: Int) -> Node {
        var copy = self
        copy.location.line += lines
        switch value {
        case .array(let items): copy.value = .array(items.map { $0.shifted(lines: lines) })
        case .object(let members):
            copy.value = .object(members.map {
                var m = $0
                m.keyLocation.line += lines
                m.value = $0.value.shifted(lines: lines)
                return m
            })
        default: break
        }
        return copy
    }
}
