import JSONSchema
import ProjectFile
import TestSupport
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

    /// Values already found valid under a schema are not checked again (`EvaluationRun`), but
    /// an invalid one is reported at each place it appears, with that place's path.
    @Test func aRepeatedValueIsReportedWhereverItIsInvalid() throws {
        let schema = """
        {"type": "array", "items": {"type": "object", "properties": {"to": {"anyOf": [
          {"type": "number", "minimum": 0}, {"type": "string", "pattern": "^[0-9.]+s$"}]}}}}
        """
        let problems = try validate("""
        - to: 0.5s
        - to: 0.5s
        - to: half
        - to: 0.5s
        - to: half
        - to: -1
        """, schema: schema)
        #expect(problems.map(\.path) == ["[2].to", "[4].to", "[5].to"])
        #expect(problems.map(\.location.line) == [3, 5, 6])
        #expect(problems[0].message == problems[1].message.replacingOccurrences(of: "[4]", with: "[2]"))
        #expect(problems[2].message == "[5].to: must be at least 0, found -1")
    }

    /// Where only validity matters (an `if`, the first look at `oneOf` branches) failures are
    /// not worded; the messages of a value that fits no branch are those of a full evaluation.
    @Test func branchesThatDecideTheMessageAreWorded() throws {
        let schema = """
        {"type": "array", "items": {
          "if": {"type": "object", "required": ["transition"]},
          "then": {"type": "object", "required": ["duration"], "properties": {"duration": {"type": "string"}}},
          "else": {"oneOf": [{"type": "object", "required": ["media"]}, {"type": "object", "required": ["gap"]}]}}}
        """
        let problems = try validate("""
        - media: a
        - transition: crossfade
        - gap: 1
        - other: 1
        - {media: a, gap: 1}
        """, schema: schema)
        #expect(problems.map(\.message) == [
            "missing required key 'duration' in [1]",
            "missing required key 'media' in [3]",
            "[4]: matches more than one of the alternatives (alternative 1 and alternative 2) where exactly one must match",
        ])
    }

    /// Other tools' spellings: the same name once case and separators are ignored, else
    /// `x-aliases` (followed through `$ref`s and `anyOf`s), else edit distance; never a name
    /// the enum does not list.
    @Test func otherToolsSpellingsAreAnsweredWithReelsName() throws {
        let schema = """
        {"$defs": {"kind": {"anyOf": [{"enum": ["crossfade", "wipe-left"], "x-aliases": {"fade": "crossfade", "dissolve": "nowhere"}},
                                      {"type": "number"}]}},
         "type": "object", "properties": {"t": {"anyOf": [{"$ref": "#/$defs/kind"}, {"type": "boolean"}], "description": "a kind"},
                                          "u": {"enum": ["ease-out-expo"], "x-aliases": {"expo": "ease-out-expo"}}}}
        """
        func suggestion(_ yamlText: String) throws -> String {
            try validate(yamlText, schema: schema).map(\.message).joined(separator: " | ")
        }
        #expect(try suggestion("t: WipeLeft").hasSuffix("did you mean 'wipe-left'?"))
        #expect(try suggestion("t: fade").hasSuffix("did you mean 'crossfade'?"))
        #expect(try suggestion("t: wipe_left").hasSuffix("did you mean 'wipe-left'?"))
        #expect(try !suggestion("t: dissolve").contains("did you mean"), "an alias to a name the enum lacks is no answer")
        #expect(try suggestion("u: easeOutExpo").hasSuffix("did you mean 'ease-out-expo'?"))
        #expect(try suggestion("u: Expo").hasSuffix("did you mean 'ease-out-expo'?"))
    }
}
