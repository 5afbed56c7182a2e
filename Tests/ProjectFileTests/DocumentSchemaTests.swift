import Foundation
import ProjectFile
import TestSupport
import Testing

/// What ProjectFile adds to the validator: diagnostics in source order, each once, with the
/// place quoted, a hint for a '<<' key that does not merge, and a broken schema as an invalid project.
struct DocumentSchemaTests {
    static let clipSchema = #"""
    {"properties": {"video": {"type": "array", "items": {"properties": {"clips": {"type": "array", "items": {
      "type": "object", "additionalProperties": false, "properties": {"media": {"type": "string"}, "from": {"type": "string"}}}}}}}}}
    """#

    @Test func renderingShowsTheLineAndACaret() throws {
        let document = try DocumentLoader.load(text: "video:\n  - clips:\n      - media: intro\n        fromm: 1s\n", name: "p.yaml")
        let problems = try DocumentSchema(json(Self.clipSchema)).validate(document.root)
        let text = ProjectError(.invalidProject, diagnostics: problems, sources: [document.source]).description
        #expect(text == """
        p.yaml:4:9: error: unknown key 'fromm' in video[0].clips[0]; did you mean 'from'?
         4 |         fromm: 1s
           |         ^

        """)
    }

    @Test func aMergeKeyThatIsAnOrdinaryKeyGetsItsOwnHint() throws {
        // Quoted in YAML, or in JSON, '<<' is a key like any other, which the schema refuses.
        let hint = "'<<' merges a mapping only unquoted in a YAML file (<<: *anchor); in JSON, write the keys out"
        for document in [try yaml("video:\n  - clips:\n      - media: intro\n        \"<<\": {from: 1s}\n"),
                         try json(#"{"video": [{"clips": [{"media": "intro", "<<": {"from": "1s"}}]}]}"#)] {
            let problems = try DocumentSchema(json(Self.clipSchema)).validate(document)
            #expect(problems.map(\.message) == ["unknown key '<<' in video[0].clips[0]"])
            #expect(problems.first?.hint == hint)
        }
        // Unquoted in YAML, it merges.
        #expect(try DocumentSchema(json(Self.clipSchema)).validate(yaml("video:\n  - clips:\n      - media: intro\n        <<: {from: 1s}\n")).isEmpty)
    }

    @Test func aWordWhereANumberOrAVarGoesHearsOfTheNumberFirst() throws {
        let schema = #"""
        {"$defs": {"var": {"title": "a {{ var }} placeholder", "type": "string", "pattern": "^\\{\\{ *[a-z]+ *\\}\\}$"}},
         "properties": {"volume": {"anyOf": [{"type": "number", "minimum": 0}, {"$ref": "#/$defs/var"}]},
                        "opacity": {"anyOf": [{"type": "number", "minimum": 0, "maximum": 1}, {"$ref": "#/$defs/var"}]}}}
        """#
        let problems = try DocumentSchema(json(schema)).validate(yaml("volume: loud\nopacity: lots\n"))
        #expect(problems.map(\.message) == ["volume: expected a number of at least 0 or a {{ var }} placeholder, found string \"loud\"",
                                            "opacity: expected a number from 0 to 1 or a {{ var }} placeholder, found string \"lots\""])
        #expect(problems.map(\.hint) == ["for example volume: 1", "for example opacity: 0.5"])
        // A placeholder is still accepted.
        #expect(try DocumentSchema(json(schema)).validate(yaml("volume: '{{ level }}'\n")).isEmpty)
    }

    @Test func peersKeysAndWordsAreAnsweredWithReelsWay() throws {
        let problems = try DocumentSchema.bundled().validate(yaml("""
            reel: 1
            output: { size: [320, 180], fps: 30 }
            video:
              - clips:
                  - { media: a, length: 2s, start: 1s, effect: zoomIn, fit: crop }
                  - { src: a.mp4 }
            overlays:
              - { text: Hi, volume: 0.5 }
            """))
        #expect(problems.map(\.message) == [
            "unknown key 'length' in video[0].clips[0]; did you mean 'duration'?",
            "unknown key 'start' in video[0].clips[0]; did you mean 'at'?",
            "unknown key 'effect' in video[0].clips[0]; did you mean 'motion'?",
            "video[0].clips[0].fit: \"crop\" is not valid here; did you mean 'cover'?",
            "unknown key 'src' in video[0].clips[1]; did you mean 'media'?",
            "unknown key 'volume' in overlays[0]"])
        #expect(problems[0].hint == "Shotstack's and Creatomate's length is Reel's duration (a clip can end at its source's to: instead)")
        #expect(problems[5].hint == "an overlay has no sound: play sound on an audio track (audio:) or from a clip, whose volume: sets it")
    }

    @Test func aBrokenSchemaIsAnInvalidProjectPointingIntoTheSchema() throws {
        let broken = try json(##"{"properties": {"a": {"$ref": "#/$defs/missing"}}}"##)
        #expect {
            _ = try DocumentSchema(broken)
        } throws: { error in
            let error = error as? ProjectError
            return error?.category == .invalidProject && error?.diagnostics.map(\.message) == ["schema: cannot resolve $ref 'urn:reel:schema#/$defs/missing': nothing at '/$defs/missing'"]
                && error?.diagnostics.first?.location == SourceLocation(file: "test.json", line: 1, column: 22)
        }
    }

    @Test func allErrorsAreReportedInSourceOrderEachOnce() throws {
        let schema = #"{"type": "object", "additionalProperties": {"type": "number"}}"#
        #expect(try DocumentSchema(json(schema)).validate(yaml("c: x\na: 1\nb: y\n")).map(\.location.line) == [1, 3])
        // allOf checks b before a, and meets the failure of b twice.
        let twice = #"{"allOf": [{"properties": {"b": {"type": "string"}}}, {"properties": {"a": {"type": "string"}}}, {"properties": {"b": {"type": "string"}}}]}"#
        #expect(try DocumentSchema(json(twice)).validate(yaml("a: 1\nb: 2\n")).map(\.location.line) == [1, 2])
    }
}
