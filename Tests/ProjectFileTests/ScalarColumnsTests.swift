import ProjectFile
import Testing

/// The column of a character inside a string scalar, however the scalar is written.
@Suite struct ScalarColumnsTests {
    /// The column ScalarColumns gives character `offset` of `text`, in `line` whose scalar starts at `column`.
    func column(_ offset: Int, of text: String, line: String, start column: Int) -> Int {
        let source = SourceText(name: "p.yaml", text: "reel: 1\n" + line + "\n")
        return ScalarColumns.location(ofCharacter: offset, in: text, at: SourceLocation(file: "p.yaml", line: 2, column: column), source: source).column
    }

    @Test func plainQuotedAndEscapedScalars() {
        // size: 12pt  — 'p' is character 2 of the plain scalar at column 7.
        #expect(column(2, of: "12pt", line: "size: 12pt", start: 7) == 9)
        #expect(column(3, of: "it's 2pt", line: "size: 'it''s 2pt'", start: 7) == 12, "'' is one character")
        #expect(column(6, of: "1px + 2pt", line: #"size: "1px \u002B 2pt""#, start: 7) == 19, "an escape is one character")
        #expect(column(2, of: "a\"b", line: #"{"size": "a\"b"}"#, start: 10) == 14, "JSON's \\\" is one character")
        // Just past the end: where a missing term would go.
        #expect(column(6, of: "10px +", line: #"size: "10px +""#, start: 7) == 14)
    }

    @Test func aScalarNotWrittenAsItsTextOnOneLineKeepsItsStart() {
        // A block scalar's text is on the lines below; a folded string differs from its first line.
        #expect(column(3, of: "10px +\n", line: "size: |", start: 7) == 7)
        #expect(column(8, of: "10px + 2px", line: #"size: "10px +"#, start: 7) == 7)
        #expect(column(1, of: "ab", line: "size: ab", start: 0) == 0)
    }
}
