import ProjectFile
import TestSupport
import Testing

struct VarsSubstitutionTests {
    @Test func wholeStringReferencesKeepTheVarsType() throws {
        let root = try yaml("""
        vars:
          headline: Spring Sale
          fps: 25
          loud: { type: boolean, default: true }
        output:
          fps: "{{fps}}"
          faststart: "{{ loud }}"
          metadata: { title: "{{ headline }} — {{ fps }} fps" }
        """)
        let (out, problems) = VarsSubstitution(document: root).apply(to: root)
        #expect(problems.isEmpty)
        #expect(out["output"]?["fps"].map { if case .number("25") = $0.value { true } else { false } } == true)
        #expect(out["output"]?["faststart"].map { if case .bool(true) = $0.value { true } else { false } } == true)
        #expect(out["output"]?["metadata"]?["title"].map { if case .string("Spring Sale — 25 fps") = $0.value { true } else { false } } == true)
        // The substituted value sits where the reference was written.
        #expect(out["output"]?["fps"]?.location.line == 6)
        // The vars block itself is left as written.
        #expect(out["vars"]?["fps"].map { if case .number("25") = $0.value { true } else { false } } == true)
    }

    @Test func overridesAreTypedWithYamlCoreRules() throws {
        let root = try yaml("vars: { fps: 30, accent: '#000000' }\nfps: '{{ fps }}'\naccent: '{{ accent }}'\n")
        var vars = VarsSubstitution(document: root)
        #expect(vars.override([set("fps", "29.97"), set("accent", "#ff3366")]).isEmpty)
        let (out, problems) = vars.apply(to: root)
        #expect(problems.isEmpty)
        #expect(out["fps"].map { if case .number("29.97") = $0.value { true } else { false } } == true)
        #expect(out["accent"].map { if case .string("#ff3366") = $0.value { true } else { false } } == true)
        let unknown = vars.override([set("fsp", "1")])
        #expect(unknown.map(\.message) == ["unknown var 'fsp' (given as fsp=1)"])
        #expect(unknown.first?.hint == "did you mean 'fps'? known vars: accent, fps")
        #expect(DiagnosticRenderer(sources: []).render(unknown) == """
        --set: error: unknown var 'fsp' (given as fsp=1)
          = hint: did you mean 'fps'? known vars: accent, fps

        """)
    }

    @Test func unknownVarsAndVarsUsingVarsAreErrors() throws {
        let root = try yaml("vars:\n  a: x\n  b: '{{ a }}'\ntitle: 'Hello {{ nme }}'\n")
        let (_, problems) = VarsSubstitution(document: root).apply(to: root)
        #expect(problems.map(\.message) == [
            "var 'b' refers to {{ a }}; a var's value cannot use other vars",
            "unknown var 'nme' in title",
        ])
        #expect(problems.last?.location.line == 4)
        #expect(problems.last?.hint == "known vars: a, b")
    }
}

/// `--set name=value`.
func set(_ name: String, _ text: String) -> VarOverride {
    VarOverride(name: name, input: .text(text), location: .commandLine("--set"))
}
