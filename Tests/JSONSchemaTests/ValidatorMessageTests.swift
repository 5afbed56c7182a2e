import JSONSchema
import ProjectFile
import Testing

/// How the validator words failures, and where it puts them.
struct ValidatorMessageTests {
    static let clipSchema = """
    {
      "type": "object",
      "properties": {
        "video": {"type": "array", "items": {"type": "object", "properties": {"clips": {"type": "array", "items": {"$ref": "#/$defs/clip"}}}}}
      },
      "$defs": {
        "clip": {"oneOf": [
          {"type": "object", "required": ["media"], "additionalProperties": false,
           "properties": {"media": {"type": "string"}, "from": {"type": "string"}, "to": {"type": "string"},
                          "fit": {"enum": ["contain", "cover", "fill", "none"]}}},
          {"type": "object", "required": ["transition"], "additionalProperties": false,
           "properties": {"transition": {"const": "crossfade"}, "duration": {"type": "string"}}},
          {"type": "object", "required": ["gap"], "additionalProperties": false, "properties": {"gap": {"type": "string"}}}
        ]}
      }
    }
    """

    func validate(_ yamlText: String, schema: String = clipSchema) throws -> [SchemaFailure<ProjectFile.SourceLocation>] {
        try Schema(json(schema)).validate(yaml(yamlText))
    }

    @Test func unknownKeySuggestsTheClosestAllowedKeyAtTheKey() throws {
        let problems = try validate("""
        video:
          - clips:
              - media: intro
                fromm: 1s
        """)
        #expect(problems.map(\.message) == ["unknown key 'fromm' in video[0].clips[0]; did you mean 'from'?"])
        #expect(problems.first?.location == SourceLocation(file: "test.yaml", line: 4, column: 9))
        #expect(problems.first?.hint == nil)
        let far = try validate("video:\n  - clips:\n      - media: intro\n        speed: 2\n")
        #expect(far.map(\.message) == ["unknown key 'speed' in video[0].clips[0]"])
        #expect(far.first?.hint == "allowed keys: fit, from, media, to")
        #expect(far.first?.unknownKey == "speed")
    }

    @Test func oneOfReportsTheClosestBranchAndAllErrors() throws {
        let problems = try validate("""
        video:
          - clips:
              - media: intro
                fit: covr
              - transition: crossfade
                duraton: 1s
              - gap: 2
        """)
        #expect(problems.map(\.message) == [
            "video[0].clips[0].fit: \"covr\" is not one of the allowed values: \"contain\", \"cover\", \"fill\", \"none\"; did you mean 'cover'?",
            "unknown key 'duraton' in video[0].clips[1]; did you mean 'duration'?",
            "video[0].clips[2].gap: expected a string, found number 2",
        ])
        #expect(problems.map(\.location.line) == [4, 6, 7])
    }

    @Test func typeMismatchAcrossAlternativesIsOneMessage() throws {
        let schema = #"{"properties": {"fps": {"anyOf": [{"type": "number", "exclusiveMinimum": 0}, {"type": "string", "pattern": "^[0-9]+/[0-9]+$"}]}}}"#
        #expect(try validate("fps: true", schema: schema).map(\.message) == ["fps: expected a number or a string, found boolean true"])
        #expect(try validate("fps: 30x", schema: schema).map(\.message) == [#"fps: "30x" does not match the pattern '^[0-9]+/[0-9]+$'"#])
        #expect(try validate("fps: 0", schema: schema).map(\.message) == ["fps: must be greater than 0, found 0"])
    }

    @Test func descriptionsBecomeHintsAndRequiredKeysAreNamed() throws {
        let schema = #"{"type": "object", "required": ["reel", "output"], "properties": {"reel": {"const": 1, "description": "Format version: 1."}, "output": {}}}"#
        let problems = try validate("reel: 2\n", schema: schema)
        #expect(problems.map(\.message) == ["missing required key 'output' in the document root", "reel: must be 1, found 2"])
        #expect(problems.last?.hint == "Format version: 1.")
    }

    @Test func bigNumbersCompareExactly() throws {
        let schema = #"{"properties": {"n": {"maximum": 18446744073709551615}, "m": {"multipleOf": 0.01}}}"#
        #expect(try validate("n: 18446744073709551616\nm: 0.07\n", schema: schema).map(\.message) == ["n: must be at most 18446744073709551615, found 18446744073709551616"])
    }

    @Test func refLoopsThatNeverConsumeTheDocumentAreSchemaErrors() throws {
        let looping = ##"{"$defs": {"a": {"$ref": "#/$defs/b"}, "b": {"allOf": [{"$ref": "#/$defs/a"}]}}, "$ref": "#/$defs/a"}"##
        #expect(throws: InvalidSchema<ProjectFile.SourceLocation>.self) { _ = try Schema(json(looping)) }
        // Recursion through a child (a tree of lists) is fine.
        let tree = ##"{"$defs": {"node": {"type": "array", "items": {"$ref": "#/$defs/node"}}}, "$ref": "#/$defs/node"}"##
        #expect(try Schema(json(tree)).validate(json("[[], [[]]]")).isEmpty)
        #expect(try Schema(json(tree)).validate(json("[[1]]")).map(\.message) == ["[0][0]: expected a list, found number 1"])
    }
}
