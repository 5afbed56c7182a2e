import ProjectFile

/// A small RFC 4180 CSV reader: comma-separated fields, double-quoted fields that may hold
/// commas, quotes (written `""`) and line breaks, CRLF or LF line ends, an optional UTF-8
/// byte-order mark. Every field keeps the line and column where it starts, so messages can
/// point into the file. Blank lines are skipped; a quote inside an unquoted field is kept
/// as it is (as spreadsheets write `5" screen`).
public enum CSVReader {
    public struct Field: Sendable, Equatable {
        public var text: String
        public var location: SourceLocation
    }

    /// The records of `text` in order, each a list of fields (the header is the first record).
    public static func read(_ text: String, file: String) throws(ProjectError) -> [[Field]] {
        var records: [[Field]] = []
        var record: [Field] = []
        var field = String.UnicodeScalarView()
        var fieldStart = SourceLocation(file: file, line: 1, column: 1)
        var quoted = false, inQuotes = false, afterQuote = false
        var line = 1, column = 1
        var scalars = Array(text.unicodeScalars)
        if scalars.first == "\u{FEFF}" { scalars.removeFirst() }

        func endField() {
            record.append(Field(text: String(field), location: fieldStart))
            field = String.UnicodeScalarView()
            quoted = false
            afterQuote = false
        }
        func endRecord() {
            // A line with nothing on it is not a record (a line holding only "" is).
            let blank = record.isEmpty && field.isEmpty && !quoted
            endField()
            if !blank { records.append(record) }
            record = []
        }
        var i = 0
        while i < scalars.count {
            let c = scalars[i]
            let here = SourceLocation(file: file, line: line, column: column)
            // Position of the next scalar.
            if c == "\n" || (c == "\r" && (i + 1 >= scalars.count || scalars[i + 1] != "\n")) {
                line += 1
                column = 1
            } else if c != "\r" {
                column += 1
            }
            if inQuotes {
                if c == "\"" {
                    if i + 1 < scalars.count, scalars[i + 1] == "\"" {
                        field.append("\"")
                        column += 1
                        i += 2
                        continue
                    }
                    inQuotes = false
                    afterQuote = true
                } else {
                    field.append(c)
                }
                i += 1
                continue
            }
            switch c {
            case "\"" where field.isEmpty && !quoted && !afterQuote:
                quoted = true
                inQuotes = true
            case ",":
                endField()
                fieldStart = SourceLocation(file: file, line: line, column: column)
            case "\r", "\n":
                if c == "\r", i + 1 < scalars.count, scalars[i + 1] == "\n" {
                    i += 1
                    line += 1
                    column = 1
                }
                endRecord()
                fieldStart = SourceLocation(file: file, line: line, column: column)
            default:
                if afterQuote {
                    throw ProjectError(.invalidProject, Diagnostic(location: here, path: "",
                        message: "unexpected '\(Character(c))' after the closing quote of a field",
                        hint: "a quoted field ends at its closing quote; write a quote inside it as \"\""),
                        source: SourceText(name: file, text: text))
                }
                field.append(c)
            }
            i += 1
        }
        if inQuotes {
            throw ProjectError(.invalidProject, Diagnostic(location: fieldStart, path: "",
                message: "this quoted field is never closed", hint: "add the closing quote (write a quote inside a field as \"\")"),
                source: SourceText(name: file, text: text))
        }
        if !field.isEmpty || quoted || !record.isEmpty {
            endRecord()
        }
        return records
    }
}
