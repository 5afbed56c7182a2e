import ProjectFile
import TestSupport
import Testing

/// Declared var types and limits: defaults and overrides are checked, with messages that name
/// the var, the value, what was expected and where the value came from.
struct TypedVarsTests {
    static let project = """
    reel: 1
    vars:
      name: { type: string, default: Widget, max_length: 12, description: Product name }
      price: { type: number, default: 9.99, minimum: 0, maximum: 100 }
      colour: { type: color, default: "#ff3366" }
      picture: { type: path, default: logo.png }
      length: { type: time, default: 2s, minimum: 1, maximum: 5 }
      loud: { type: boolean, default: true }
      code: { type: string, default: "007" }
      free: 25
    output: { fps: 25 }
    """

    func substitution() throws -> VarsSubstitution {
        let vars = VarsSubstitution(document: try yaml(Self.project))
        #expect(vars.declarationProblems.isEmpty)
        return vars
    }

    /// The messages of the problems with one override each.
    func problems(_ overrides: [VarOverride]) throws -> [String] {
        var vars = try substitution()
        return vars.override(overrides).map(\.message)
    }

    @Test func goodValuesAreTypedByTheDeclaredType() throws {
        var vars = try substitution()
        let problems = vars.override([set("name", "00123"), set("price", "12.50"), set("colour", "white"), set("picture", "a b.png"),
                                      set("length", "75f"), set("loud", "false"), set("free", "0x10")])
        #expect(problems.isEmpty, "\(problems)")
        // A string var keeps text that looks like a number exactly as written.
        #expect(vars.values["name"]??.value.text == "00123")
        #expect(vars.values["price"]??.value.text == "12.50")
        #expect(vars.values["colour"]??.value.text == "white")
        #expect(vars.values["length"]??.value.text == "75f")
        if case .bool(false)? = vars.values["loud"]??.value {} else { Issue.record("loud is not false: \(String(describing: vars.values["loud"]))") }
        // An untyped var follows the YAML 1.2 core rules.
        if case .number("16")? = vars.values["free"]??.value {} else { Issue.record("free is not 16") }
    }

    @Test func eachTypeRejectsWhatDoesNotFit() throws {
        #expect(try problems([set("price", "cheap")]) == ["var 'price' expects a number such as 9.99; got 'cheap'"])
        #expect(try problems([set("colour", "blurple")]) == [
            ##"var 'colour' expects a colour: "#rgb", "#rgba", "#rrggbb", "#rrggbbaa" or black, white, transparent, red, green, blue, yellow, gray; got 'blurple'"##,
        ])
        // Exactly the schema's colour syntax: names are lower case, hex has 3, 4, 6 or 8 digits.
        #expect(try problems([set("colour", "RED")]).count == 1)
        #expect(try problems([set("colour", "#12345")]).count == 1)
        #expect(try problems([set("colour", "#ABCDEF80")]).isEmpty)
        #expect(try problems([set("loud", "yes")]) == ["var 'loud' expects true or false; got 'yes'"])
        #expect(try problems([set("picture", " ")]) == ["var 'picture' expects a file path; got empty text"])
        #expect(try problems([set("length", "soon")]) == [
            #"var 'length': 'soon' is not a time; expected a time such as 1.5, "1.5s", "250ms", "2.5min", "1h", "12f", "01:02.5", "00:01:02.500" or "00:01:02:15""#,
        ])
        // SMPTE frames are checked at the project's 25 fps.
        #expect(try problems([set("length", "00:00:02:25")]) == ["var 'length': '00:00:02:25': frame 25 does not exist at 25 fps (frames run 0...24)"])
    }

    @Test func limitsAreChecked() throws {
        #expect(try problems([set("price", "-1")]) == ["var 'price' must be at least 0; got '-1'"])
        #expect(try problems([set("price", "1e3")]) == ["var 'price' must be at most 100; got '1e3'"])
        #expect(try problems([set("price", "100")]).isEmpty)
        #expect(try problems([set("length", "500ms")]) == ["var 'length' must be at least 1 s; got '500ms'"])
        #expect(try problems([set("length", "126f")]) == ["var 'length' must be at most 5 s; got '126f'"])
        #expect(try problems([set("length", "125f")]).isEmpty)
        // Characters, not bytes: twelve Chinese characters fit, thirteen do not.
        #expect(try problems([set("name", String(repeating: "字", count: 12))]).isEmpty)
        var vars = try substitution()
        let long = vars.override([set("name", String(repeating: "字", count: 13))])
        #expect(long.map(\.message) == ["var 'name' takes at most 12 characters; got 13 ('\(String(repeating: "字", count: 13))')"])
        #expect(long.first?.hint == "name: Product name")
    }

    @Test func typedValuesFromFilesMustHaveTheRightKind() throws {
        let file = try DocumentLoader.load(text: "price: \"12\"\nname: 2024\nloud: true\ncolour: [1]\n", name: "vars.yaml", format: .yaml)
        var vars = try substitution()
        let problems = vars.override(VarOverride.members(of: file.root) ?? [])
        #expect(problems.map(\.message) == [
            #"var 'price' expects a number such as 9.99; got the text "12""#,
            ##"var 'colour' expects a colour: "#rgb", "#rgba", "#rrggbb", "#rrggbbaa" or black, white, transparent, red, green, blue, yellow, gray; got a list of 1"##,
        ])
        // Each problem points at the value in the file it came from.
        #expect(problems.map { "\($0.location)" } == ["vars.yaml:1:8", "vars.yaml:4:9"])
        // A number given for a string var becomes its text.
        if case .string("2024")? = vars.values["name"]??.value {} else { Issue.record("name is not the text 2024: \(String(describing: vars.values["name"]))") }
    }

    @Test func theLastValueForAVarWinsAndOnlyItIsChecked() throws {
        let file = try DocumentLoader.load(text: "{\"price\": \"cheap\"}", name: "vars.json", format: .json)
        var vars = try substitution()
        let problems = vars.override((VarOverride.members(of: file.root) ?? []) + [set("price", "5")])
        #expect(problems.isEmpty)
        #expect(vars.values["price"]??.value.text == "5")
        #expect(vars.values["price"]??.location.description == "--set")
    }

    @Test func aValueCannotUseOtherVarsHoweverLong() throws {
        let long = String(repeating: "x", count: 60) + " {{ price }}"
        var vars = try substitution()
        let problems = vars.override([VarOverride(name: "name", input: .value(.string(long)), location: .commandLine("row"))])
        #expect(problems.map(\.message) == ["the value given for var 'name' uses {{ }}; a var's value cannot use other vars"])
    }

    @Test func declarationsAreChecked() throws {
        let root = try yaml("""
        vars:
          price: { type: number, default: cheap, max_length: 3 }
          title: { type: string, minimum: 2 }
          count: { type: number, minimum: 5, maximum: 1 }
          start: { type: time, default: 1s, minimum: 1e2 }
          ok: { type: color, default: "#000" }
          needed: { type: string, description: no default }
        """)
        let vars = VarsSubstitution(document: root)
        #expect(vars.declarationProblems.map(\.message) == [
            "var 'price' has max_length, but it is a number var",
            "var 'price' expects a number such as 9.99; got the text \"cheap\"",
            "var 'title' has a minimum or maximum, but it is a string var",
            "var 'count' has a maximum (1) below its minimum (5)",
            "the bound 1e2 of time var 'start' must be plain seconds",
        ])
        #expect(vars.declarationProblems[1].location.description == "test.yaml:2:35")
        // A var without a default has no value until one is given.
        let needed = try #require(vars.values["needed"])
        #expect(needed == nil)
    }

    @Test func aVarWithoutADefaultMustBeGivenWhereItIsUsed() throws {
        let root = try yaml("vars:\n  needed: { type: string }\ntitle: '{{ needed }}'\n")
        var vars = VarsSubstitution(document: root)
        #expect(vars.apply(to: root).diagnostics.map(\.message) == ["var 'needed' used in title has no value"])
        #expect(vars.override([set("needed", "here")]).isEmpty)
        #expect(vars.apply(to: root).node["title"]?.value.text == "here")
    }
}

extension Node.Value {
    /// The text of a string or number, for comparisons.
    var text: String? {
        switch self {
        case .string(let s), .number(let s): s
        default: nil
        }
    }
}
