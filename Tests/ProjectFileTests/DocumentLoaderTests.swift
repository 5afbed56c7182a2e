import Foundation
import ProjectFile
import TestSupport
import Testing

struct DocumentLoaderTests {
    @Test func yamlUsesTheCoreSchema() throws {
        let root = try yaml("""
        a: yes
        b: on
        c: 01:02
        d: 0x1F
        e: 0o17
        f: "42"
        g: 42
        h: ~
        i: True
        j: +.5
        k: 1e3
        l: '#ff3366'
        m: 007
        n: 12345678901234567890123
        """)
        func value(_ key: String) -> Node.Value? { root[key]?.value }
        #expect(value("a").map { if case .string("yes") = $0 { true } else { false } } == true)
        #expect(value("b").map { if case .string("on") = $0 { true } else { false } } == true)
        #expect(value("c").map { if case .string("01:02") = $0 { true } else { false } } == true)
        #expect(value("d").map { if case .number("31") = $0 { true } else { false } } == true)
        #expect(value("e").map { if case .number("15") = $0 { true } else { false } } == true)
        #expect(value("f").map { if case .string("42") = $0 { true } else { false } } == true)
        #expect(value("g").map { if case .number("42") = $0 { true } else { false } } == true)
        #expect(value("h").map { if case .null = $0 { true } else { false } } == true)
        #expect(value("i").map { if case .bool(true) = $0 { true } else { false } } == true)
        #expect(value("j").map { if case .number("0.5") = $0 { true } else { false } } == true)
        #expect(value("k").map { if case .number("1e3") = $0 { true } else { false } } == true)
        #expect(value("l").map { if case .string("#ff3366") = $0 { true } else { false } } == true)
        #expect(value("m").map { if case .number("7") = $0 { true } else { false } } == true)
        #expect(value("n").map { if case .number("12345678901234567890123") = $0 { true } else { false } } == true)
    }

    @Test func everyNodeAndKeyHasItsLineAndColumn() throws {
        let root = try yaml("""
        video:
          - clips:
              - media: intro
                from: 1s
        """)
        guard case .array(let tracks)? = root["video"]?.value, case .object(let track) = tracks[0].value,
              case .array(let clips) = track[0].value.value, case .object(let clip) = clips[0].value else {
            Issue.record("unexpected shape")
            return
        }
        #expect(clip[1].key == "from")
        #expect(clip[1].keyLocation == SourceLocation(file: "test.yaml", line: 4, column: 9))
        #expect(clip[1].value.location == SourceLocation(file: "test.yaml", line: 4, column: 15))
        let j = try json("{\n  \"a\": [1, {\"é\": \"x\", \"b\": true}]\n}")
        guard case .object(let members) = j.value, case .array(let items) = members[0].value.value, case .object(let inner) = items[1].value else {
            Issue.record("unexpected shape")
            return
        }
        #expect(members[0].keyLocation == SourceLocation(file: "test.json", line: 2, column: 3))
        #expect(items[1].location == SourceLocation(file: "test.json", line: 2, column: 12))
        // Columns count Unicode scalars: "é" is one column though two bytes.
        #expect(inner[1].keyLocation == SourceLocation(file: "test.json", line: 2, column: 23))
    }

    @Test func jsonEscapesAndNumbersAreExact() throws {
        let root = try json(#"{"s": "a\/b\u00e9\ud83d\ude00\n", "big": 123456789012345678901234567890, "e": -1.5E+300}"#)
        #expect(root["s"]?.value.stringValue == "a/bé😀\n")
        #expect(root["big"].map { if case .number("123456789012345678901234567890") = $0.value { true } else { false } } == true)
        #expect(root["e"].map { if case .number("-1.5E+300") = $0.value { true } else { false } } == true)
    }

    @Test func duplicateKeysAreErrorsInBothFormats() {
        let jsonError = loadFailure(#"{"a": 1, "b": 2, "a": 3, "b": 4}"#, format: .json)
        #expect(jsonError?.diagnostics.map(\.message) == [
            "duplicate key 'a' in the document root (first at line 1, column 2)",
            "duplicate key 'b' in the document root (first at line 1, column 10)",
        ])
        #expect(jsonError?.diagnostics.first?.location.column == 18)
        let yamlError = loadFailure("a: 1\nb: 2\na: 3\n", format: .yaml)
        #expect(yamlError?.category == .invalidProject)
        #expect(yamlError?.diagnostics.first?.message.contains("duplicate key 'a'") == true)
        // `1` and "1" are the same key once keys are names.
        #expect(loadFailure("1: a\n\"1\": b\n", format: .yaml)?.diagnostics.first?.message.contains("duplicate key '1'") == true)
    }

    @Test func jsonSyntaxErrorsPointAtTheProblem() {
        let error = loadFailure("{\n  \"a\": 1,\n}", format: .json)
        #expect(error?.diagnostics.first?.location == SourceLocation(file: "test", line: 3, column: 1))
        #expect(error?.diagnostics.first?.message == "expected a key in double quotes, found '}'")
        #expect(error?.diagnostics.first?.hint == "JSON does not allow a comma before '}'")
        #expect(loadFailure(#"{"a": 01}"#, format: .json)?.diagnostics.first?.message == "malformed number '01'")
    }

    @Test func yamlSyntaxErrorsHaveALocation() {
        let error = loadFailure("a: [1, 2\nb: 3\n", format: .yaml)
        #expect(error?.category == .invalidProject)
        #expect(error?.diagnostics.first?.message.hasPrefix("invalid YAML:") == true)
        #expect(error?.diagnostics.first?.location.line == 2)
        let tab = loadFailure("a:\n\t- b\n", format: .yaml)?.diagnostics.first
        #expect(tab?.location == SourceLocation(file: "test", line: 2, column: 1))
        #expect(tab?.hint == "YAML indents with spaces; replace the tab")
        let two = loadFailure("a: 1\n---\nb: 2\n", format: .yaml)?.diagnostics.first
        #expect(two?.message == "the file holds more than one YAML document")
        #expect(two?.location.line == 2)
    }

    @Test func formatFollowsTheExtensionThenTheContent() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let unknown = dir.appendingPathComponent("project.reel")
        try #"{"a": "b"}"#.write(to: unknown, atomically: true, encoding: .utf8)
        #expect(try DocumentLoader.load(path: unknown.path).format == .json)
        try "a: b\n".write(to: unknown, atomically: true, encoding: .utf8)
        #expect(try DocumentLoader.load(path: unknown.path).format == .yaml)
        let yml = dir.appendingPathComponent("p.yml")
        try #"{"a": "b"}"#.write(to: yml, atomically: true, encoding: .utf8)
        #expect(try DocumentLoader.load(path: yml.path).format == .yaml)
    }

    @Test func crlfLineEndsCountOnce() throws {
        let root = try yaml("a: |\r\n  text\r\nb: [1,\r\n  2]\r\nc: x\r\n")
        #expect(root["c"]?.location == SourceLocation(file: "test.yaml", line: 5, column: 4))
        let j = try json("{\r\n\"a\":\r\n  1}")
        #expect(j["a"]?.location == SourceLocation(file: "test.json", line: 3, column: 3))
        let source = SourceText(name: "s", text: "one\r\ntwo\rthree\nfour")
        #expect([1, 2, 3, 4, 5].map { source.line($0) } == ["one", "two", "three", "four", nil])
    }

    @Test func nonFiniteYamlNumbersAreRejected() {
        #expect(loadFailure("a: .inf\n", format: .yaml)?.diagnostics.first?.message.contains("not a finite number") == true)
    }
}

private extension Node.Value {
    var stringValue: String? { if case .string(let s) = self { s } else { nil } }
}
