import CompositionGraph
import Foundation
import MediaTime
import ProjectCompiler
import ProjectFile
import TestSupport
import Testing

private extension CompositionGraph {
    var layerFits: [Fit] { videoComposition.instructions.flatMap(\.layers).map(\.fit) }
}

/// A var may stand for any value of the format: numbers and choices of the output settings
/// included (one template, many sizes), checked after substitution like any value.
@Suite struct VarsEverywhereTests {
    static let template = """
        reel: 1
        vars:
          w: 1080
          h: { type: number, default: 1920 }
          quality: 20
          fit: cover
          quiet: false
          weight: 700
        output:
          size: ["{{ w }}", "{{ h }}"]
          fps: 30
          video: { codec: h264, crf: "{{ quality }}" }
        media: { a: A.mp4 }
        video:
          - clips:
              - media: a
                duration: 2s
                fit: "{{ fit }}"
                mute: "{{ quiet }}"
        overlays:
          - text: Sale
            style: { font: DejaVu Sans, size: 40, weight: "{{ weight }}" }
        """

    func load(_ sets: [String: String] = [:]) throws(ProjectError) -> ProjectPipeline.Loaded {
        let document = try DocumentLoader.load(text: Self.template, name: repositoryRoot.appendingPathComponent("Examples/vars.yaml").path)
        let overrides = sets.sorted { $0.key < $1.key }.map { VarOverride(name: $0.key, input: .text($0.value), location: .commandLine("--set")) }
        return try ProjectPipeline.load(document, overrides: overrides, media: FakeMediaFacts.promo, fonts: FakeFonts())
    }

    @Test func outputSettingsAndChoicesComeFromVars() throws {
        let vertical = try load().graph
        #expect(vertical.videoComposition.renderSize == PixelSize(width: 1080, height: 1920))
        #expect(vertical.output.video?.crf == 20)
        let square = try load(["w": "1080", "h": "1080", "quality": "28", "fit": "contain", "quiet": "true"]).graph
        #expect(square.videoComposition.renderSize == PixelSize(width: 1080, height: 1080))
        #expect(square.output.video?.crf == 28)
        let soundTracks = { (graph: CompositionGraph) in graph.composition.tracks.filter { $0.kind == .audio }.count }
        #expect(soundTracks(vertical) == 1)
        #expect(soundTracks(square) == 0, "quiet: true mutes the clip")
        #expect(square.layerFits == [.contain] && vertical.layerFits == [.cover])
    }

    @Test func aValueThatDoesNotFitIsCheckedAfterSubstitution() throws {
        let error = try #require(throws: ProjectError.self) { try load(["w": "1", "fit": "squash"]) }
        let messages = error.diagnostics.map(\.message)
        #expect(messages.contains("output.size[0]: must be at least 2, found 1"), "\(messages)")
        #expect(messages.contains { $0.hasPrefix("video[0].clips[0].fit: \"squash\"") }, "\(messages)")
        let typed = try #require(throws: ProjectError.self) { try load(["h": "tall"]) }
        #expect(typed.diagnostics.map(\.message) == ["var 'h' expects a number such as 1920; got 'tall'"])
    }

    /// The rule behind it, for every key added later: each number, whole number, boolean and
    /// choice of the schema (outside the `vars:` block itself) also accepts a {{ var }}.
    @Test func everyFillableValueOfTheSchemaAcceptsAVar() throws {
        let url = repositoryRoot.appendingPathComponent("Schemas/reel.schema.json")
        let schema = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any])
        var missing: [String] = []
        func fillable(_ node: [String: Any]) -> Bool {
            ["integer", "number", "boolean"].contains(node["type"] as? String ?? "") || node["enum"] != nil
        }
        func acceptsVar(_ alternatives: Any?) -> Bool {
            (alternatives as? [[String: Any]])?.contains { $0["$ref"] as? String == "#/$defs/var_ref" } ?? false
        }
        func walk(_ value: Any, path: String, alternativesWithVar: Bool) {
            if let list = value as? [Any] {
                for (i, item) in list.enumerated() { walk(item, path: "\(path)[\(i)]", alternativesWithVar: false) }
                return
            }
            guard let node = value as? [String: Any] else { return }
            if fillable(node) && !alternativesWithVar { missing.append(path) }
            for (key, child) in node {
                if key == "anyOf" || key == "oneOf", let list = child as? [Any] {
                    let withVar = acceptsVar(list)
                    for (i, item) in list.enumerated() { walk(item, path: "\(path).\(key)[\(i)]", alternativesWithVar: withVar) }
                } else if key == "properties" || key == "$defs", let members = child as? [String: Any] {
                    for (name, member) in members where !(path.isEmpty && name == "vars") && name != "var_ref" {
                        walk(member, path: "\(path).\(key).\(name)", alternativesWithVar: false)
                    }
                } else {
                    walk(child, path: "\(path).\(key)", alternativesWithVar: false)
                }
            }
        }
        walk(schema, path: "", alternativesWithVar: false)
        #expect(missing.isEmpty, "values that cannot be given as a {{ var }} (put them in an anyOf with #/$defs/var_ref): \(missing.sorted())")
    }
}
