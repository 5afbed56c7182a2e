import Foundation
import ProjectFile
import Testing

/// A value given for a var (`--set`, `--vars`, a batch CSV cell) cannot escape its place:
/// values are substituted once into the parsed tree (never re-read as YAML, never expanded
/// again), and a value inside a file path stays a name in the folder the project wrote
/// (VarPathRule).
@Suite struct TemplateEscapeTests {
    static let project = """
        reel: 1
        vars:
          name: clip
          folder: media
          a: x
          b: x
          title: Hello
          picture: { type: path, default: logo.png }
          font: DejaVuSans
        output: { size: [320, 180], fps: 25, path: "out/{{ name }}.mp4" }
        fonts: ["fonts/{{ font }}.ttf"]
        media:
          clip: "{{ folder }}/{{ name }}.mp4"
          pair: "media/..{{ a }}{{ b }}/x.mp4"
          picture: "{{ picture }}"
        overlays:
          - text: "{{ title }}"
          - text: "{{ a }}{{ b }}"
        """

    func apply(_ values: [String: String]) throws -> (Node, [Diagnostic]) {
        let document = try DocumentLoader.load(text: Self.project, name: "project.yaml", format: .yaml)
        var vars = VarsSubstitution(document: document.root)
        let usage = vars.override(values.sorted { $0.key < $1.key }.map { VarOverride(name: $0.key, input: .text($0.value), location: .commandLine("--set")) })
        let (root, problems) = vars.apply(to: document.root)
        return (root, usage + problems)
    }

    func string(_ node: Node?) -> String? { if case .string(let s)? = node?.value { s } else { nil } }

    @Test func aValueUsingVarsIsRefused() throws {
        let (_, problems) = try apply(["title": "{{ name }}"])
        #expect(problems.map(\.message) == ["the value given for var 'title' uses {{ }}; a var's value cannot use other vars"])
        #expect(problems.first?.location == .commandLine("--set"))
    }

    /// "{" and "{ name }}" side by side spell a reference: it stays text, as written.
    @Test func valuesAreSubstitutedOnceNeverExpandedAgain() throws {
        let (root, problems) = try apply(["a": "{", "b": "{ name }}"])
        #expect(problems.isEmpty, "\(problems.map(\.message))")
        guard case .array(let overlays)? = root["overlays"]?.value else { Issue.record("no overlays"); return }
        #expect(string(overlays[1]["text"]) == "{{ name }}")
    }

    /// A value is a string in the parsed tree: YAML in it stays text, it adds no keys.
    @Test func lineBreaksAndYAMLInAValueStayInItsField() throws {
        let value = "Sale\nmedia:\n  evil: /etc/passwd\n\"}: {reel: 2"
        let (root, problems) = try apply(["title": value])
        #expect(problems.isEmpty)
        guard case .array(let overlays)? = root["overlays"]?.value, case .object(let media)? = root["media"]?.value else { Issue.record("shape"); return }
        #expect(string(overlays[0]["text"]) == value)
        #expect(media.map(\.key) == ["clip", "pair", "picture"])
        #expect(string(root["reel"]).map { _ in false } ?? true)
    }

    @Test(arguments: [("../../etc/passwd", "holds '/'"), ("/etc/passwd", "holds '/'"), ("..", "is '..'"), (".", "is '.'"),
                      ("clip\nx", "holds a control character"), ("clip\t", "holds a control character")])
    func aValueInsideAPathCannotLeaveItsFolder(value: String, problem: String) throws {
        for name in ["name", "folder", "font"] {
            let (_, problems) = try apply([name: value])
            let place = name == "font" ? "fonts[0]" : "media.clip"
            #expect(problems.contains { $0.message.contains("var '\(name)'") && $0.message.contains(problem) && $0.message.contains(place) },
                    "\(name)=\(value.debugDescription): \(problems.map(\.message))")
            if name == "name" { #expect(problems.contains { $0.path == "output.path" }, "output.path too") }
        }
    }

    @Test func valuesCannotMakeDotDotTogether() throws {
        // Each value alone is refused as '.' or '..'; empty values can still complete a '..' the template began.
        let (_, problems) = try apply(["a": "", "b": ""])
        #expect(problems.map(\.message) == ["vars 'a', 'b' make the path in media.pair 'media/../x.mp4', with a '..' component"])
        let (_, single) = try apply(["a": ".", "b": "x"])
        #expect(single.map(\.message) == ["the value of var 'a' ('.') is '.', so it cannot be part of the path in media.pair"])
        // The same values in text are just text.
        let (root, _) = try apply(["a": ".", "b": "."])
        guard case .array(let overlays)? = root["overlays"]?.value else { return }
        #expect(string(overlays[1]["text"]) == "..")
    }

    /// A var that is the whole path chooses the file, as a path written in the project would.
    @Test func aWholePathVarChoosesAnyFile() throws {
        for value in ["../../shared/logo.png", "/srv/assets/logo.png", "images/new logo.png"] {
            let (root, problems) = try apply(["picture": value])
            #expect(problems.isEmpty, "\(problems.map(\.message))")
            #expect(string(root["media"]?["picture"]) == value)
        }
        // Names with dots that are not '.' or '..' are fine inside a path.
        let (root, problems) = try apply(["name": "clip.v2..final", "folder": "media"])
        #expect(problems.isEmpty && string(root["media"]?["clip"]) == "media/clip.v2..final.mp4")
    }

    @Test func aNULInAValueIsRefused() throws {
        let (_, problems) = try apply(["title": "a\u{0}b"])
        #expect(problems.map(\.message) == ["the value given for var 'title' holds a NUL character"])
    }
}
