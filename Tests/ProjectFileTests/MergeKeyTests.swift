import ProjectFile
import TestSupport
import Testing

/// YAML merge keys (`<<: *anchor`): a mapping's own keys win over merged ones, earlier mappings
/// of a list over later ones, and each merged key keeps the place where it was written.
struct MergeKeyTests {
    static let clips = """
    base: &clip
      fit: cover
      mute: true
    other: &loud
      mute: false
      volume: 2
    clips:
      - <<: *clip
        media: a
      - media: b
        <<: [*loud, *clip]
      - <<: *clip
        fit: fill
    """

    /// The keys of `node` with the line each was written on.
    static func keys(_ node: Node?) -> [String: Int] {
        guard case .object(let members)? = node?.value else { return [:] }
        return Dictionary(uniqueKeysWithValues: members.map { ($0.key, $0.keyLocation.line) })
    }

    static func text(_ node: Node?) -> String? {
        switch node?.value {
        case .string(let s)?, .number(let s)?: s
        case .bool(let b)?: "\(b)"
        default: nil
        }
    }

    @Test func mergedKeysComeWithTheirOwnPlaces() throws {
        let root = try yaml(Self.clips)
        guard case .array(let clips)? = root["clips"]?.value else { Issue.record("no clips"); return }
        // The merged keys point at the anchored mapping's lines (2 and 3), the clip's own at its own.
        #expect(Self.keys(clips[0]) == ["fit": 2, "mute": 3, "media": 9])
        #expect(Self.text(clips[0]["fit"]) == "cover" && clips[0]["fit"]?.location.line == 2)
    }

    @Test func ownKeysWinThenEarlierMappings() throws {
        let root = try yaml(Self.clips)
        guard case .array(let clips)? = root["clips"]?.value else { Issue.record("no clips"); return }
        // [*loud, *clip]: mute from loud (first), fit from clip, volume from loud.
        #expect(Self.text(clips[1]["mute"]) == "false" && Self.text(clips[1]["fit"]) == "cover" && Self.text(clips[1]["volume"]) == "2")
        // The clip's own fit wins, even written after the merge.
        #expect(Self.text(clips[2]["fit"]) == "fill" && clips[2]["fit"]?.location.line == 13)
        #expect(Self.text(clips[2]["mute"]) == "true")
    }

    @Test func mergesNestInsideAnchors() throws {
        let root = try yaml("a: &a {x: 1}\nb: &b {<<: *a, y: 2}\nc: {<<: *b, z: 3}\n")
        #expect(Set(Self.keys(root["c"]).keys) == ["x", "y", "z"])
    }

    @Test func aQuotedMergeKeyIsAnOrdinaryKey() throws {
        let root = try yaml("a: &a {x: 1}\nb: {'<<': 5}\n")
        #expect(Self.keys(root["b"]) == ["<<": 2])
    }

    @Test func aMergeOfSomethingElseThanAMappingIsAnError() {
        for (text, what) in [("a: {<<: 1}\n", "'1'"), ("a: {<<: [x]}\n", "'x'"), ("a: {<<: [[1]]}\n", "a list"), ("a: {<<: }\n", "an empty value")] {
            let error = loadFailure(text, format: .yaml)
            #expect(error?.diagnostics.map(\.message) == ["a merge key (<<) takes a mapping or a list of mappings, not \(what)"], "\(text)")
            #expect(error?.diagnostics.first?.location.line == 1)
            #expect(error?.diagnostics.first?.hint == "write `<<: *name` where `&name` anchors a mapping, or `<<: [*one, *two]`")
        }
    }
}
