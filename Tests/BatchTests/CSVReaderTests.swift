@testable import Batch
import ProjectFile
import Testing

struct CSVReaderTests {
    func texts(_ csv: String) throws -> [[String]] {
        try CSVReader.read(csv, file: "rows.csv").map { $0.map(\.text) }
    }

    @Test func plainQuotedAndEmptyFields() throws {
        #expect(try texts("a,b,c\n1,,3\n") == [["a", "b", "c"], ["1", "", "3"]])
        #expect(try texts("a,b\n\"x, y\",\"say \"\"hi\"\"\"\n") == [["a", "b"], ["x, y", "say \"hi\""]])
        #expect(try texts("a,b\n\"\",z") == [["a", "b"], ["", "z"]])
        // A quote inside an unquoted field is kept as written.
        #expect(try texts("a\n5\" screen\n") == [["a"], ["5\" screen"]])
    }

    @Test func lineBreaksInsideQuotesCRLFBlankLinesAndBOM() throws {
        #expect(try texts("\u{FEFF}name,n\r\n\"two\r\nlines\",1\r\n\r\nlast,2") == [["name", "n"], ["two\r\nlines", "1"], ["last", "2"]])
        #expect(try texts("a\n\"one\nline two\"\n") == [["a"], ["one\nline two"]])
        // A line holding only "" is a record with one empty field, a blank line is none.
        #expect(try texts("a\n\n\"\"\n") == [["a"], [""]])
        #expect(try texts("") == [])
    }

    @Test func fieldsKnowWhereTheyStart() throws {
        let records = try CSVReader.read("\u{FEFF}id,name\r\n1,\"multi\nline\"\r\n2,字x\n", file: "rows.csv")
        #expect(records[1].map { "\($0.location)" } == ["rows.csv:2:1", "rows.csv:2:3"])
        #expect(records[2].map { "\($0.location)" } == ["rows.csv:4:1", "rows.csv:4:3"])
    }

    @Test func malformedQuotingIsAnErrorAtItsPlace() throws {
        #expect(throws: ProjectError.self) { try CSVReader.read("a\n\"open\n", file: "rows.csv") }
        do {
            _ = try CSVReader.read("a,b\n\"x\"y,2\n", file: "rows.csv")
            Issue.record("no error")
        } catch {
            #expect(error.diagnostics.map(\.message) == ["unexpected 'y' after the closing quote of a field"])
            #expect(error.diagnostics.first?.location.description == "rows.csv:2:4")
        }
        do {
            _ = try CSVReader.read("a\nok\n\"never closed,\n", file: "rows.csv")
            Issue.record("no error")
        } catch {
            #expect(error.diagnostics.map(\.message) == ["this quoted field is never closed"])
            #expect(error.diagnostics.first?.location.description == "rows.csv:3:1")
        }
    }

    @Test func rowsHaveNumbersColumnsAndFieldCountChecks() throws {
        let rows = try BatchData.csvRows(CSVReader.read(" id , name\n1,a\n2\n3,c,extra\n", file: "rows.csv"), file: "rows.csv")
        #expect(rows.map(\.number) == [1, 2, 3])
        #expect(rows[0].values.map(\.name) == ["id", "name"])
        #expect(rows[0].problems.isEmpty)
        #expect(rows[1].problems.map(\.message) == ["this row has 1 field; the header names 2 columns"])
        #expect(rows[2].problems.map(\.message) == ["this row has 3 fields; the header names 2 columns"])
        #expect(throws: ProjectError.self) { try BatchData.csvRows(CSVReader.read("a,a\n1,2\n", file: "x.csv"), file: "x.csv") }
        #expect(throws: ProjectError.self) { try BatchData.csvRows(CSVReader.read("a,,b\n1,2,3\n", file: "x.csv"), file: "x.csv") }
    }
}
