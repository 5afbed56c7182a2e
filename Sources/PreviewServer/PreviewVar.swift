import ProjectFile

/// One var of the project as the page's form shows it: its declared type (nil: untyped), the
/// value in use as text, its default and description.
struct PreviewVar: Codable, Equatable, Sendable {
    var name: String
    var type: String?
    var value: String
    var defaultValue: String?
    var description: String?

    /// The vars of a loaded document in the order the `vars:` block declares them, each with
    /// the value `overrides` give it (the last one for a name wins), else its default.
    static func list(document root: Node, overrides: [VarOverride]) -> [PreviewVar] {
        guard let block = root["vars"], case .object(let members) = block.value else { return [] }
        let substitution = VarsSubstitution(document: root)
        var given: [String: String] = [:]
        for override in overrides { given[override.name] = override.text }
        return members.map { member in
            let declaration = substitution.declaration(member.key)
            let defaultText = declaration?.defaultValue?.value.scalarText
            return PreviewVar(name: member.key, type: declaration?.type?.rawValue, value: given[member.key] ?? defaultText ?? "",
                              defaultValue: defaultText, description: declaration?.description)
        }
    }
}
