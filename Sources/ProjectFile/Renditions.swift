import JSONSchema

/// `renditions:`: several outputs of one project, such as its 16:9, 1:1 and 9:16 cuts. Each
/// rendition has a name and replaces some of the project's settings: output keys (`size`,
/// `fps`, `path`, `container`, `segment`, and keys of `video` and `audio` one by one) and
/// var values (`vars:`, as if given with `--set`, before the command line's own values,
/// which win). Layout that differs between renditions is written with vars.
///
///     renditions:
///       landscape: {}
///       square: { size: [1080, 1080], vars: { title_y: "75%" } }
public enum Renditions {
    /// The key under which a project declares them.
    public static let key = "renditions"

    /// The names of the project's renditions, in the order written (empty: it has none).
    public static func names(in root: Node) -> [String] {
        guard case .object(let members)? = root[key]?.value else { return [] }
        return members.map(\.key)
    }

    /// The document as rendition `name` renders it (without the `renditions:` block), and the
    /// rendition's var values. Nil when the project has no rendition of that name.
    public static func select(_ name: String, in root: Node) -> (root: Node, vars: [VarOverride])? {
        guard case .object(let members) = root.value,
              case .object(let renditions)? = root[key]?.value,
              let rendition = renditions.first(where: { $0.key == name })?.value else { return nil }
        var selected = root
        selected.value = .object(members.compactMap { member in
            if member.key == key { return nil }
            guard member.key == "output" else { return member }
            var output = member
            output.value = merged(member.value, with: rendition, replacing: ["vars"])
            return output
        })
        let vars = rendition["vars"].flatMap(VarOverride.members) ?? []
        return (selected, vars)
    }

    /// The problem with asking for rendition `name` of a project whose renditions are `names`.
    public static func unknown(_ name: String, among names: [String]) -> String {
        guard !names.isEmpty else { return "the project has no renditions: block, so no rendition '\(name)'" }
        let suggestion = Suggestion.didYouMean(name, among: names).map { "; \($0)" } ?? ""
        return "the project has no rendition '\(name)' (it has \(names.joined(separator: ", ")))\(suggestion)"
    }

    /// `base` with `changes`' keys in place of its own (`video` and `audio` key by key),
    /// leaving out the keys in `skipping`.
    private static func merged(_ base: Node, with changes: Node, replacing skipping: Set<String>) -> Node {
        guard case .object(var members) = base.value, case .object(let new) = changes.value else { return base }
        for change in new where !skipping.contains(change.key) {
            var value = change.value
            if let i = members.firstIndex(where: { $0.key == change.key }) {
                if change.key == "video" || change.key == "audio" { value = merged(members[i].value, with: change.value, replacing: []) }
                members[i].value = value
            } else {
                members.append(change)
            }
        }
        var result = base
        result.value = .object(members)
        return result
    }
}
