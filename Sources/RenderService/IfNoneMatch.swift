/// `If-None-Match` (RFC 9110 13.1.2): `*`, or a list of entity tags, each compared weakly to
/// the representation's (`W/"x"` matches `"x"`, as this header's comparison is).
enum IfNoneMatch {
    /// Whether the header fields `values` match a representation whose entity tag is `etag`
    /// (`"…"`, strong): a GET is then answered 304. A field that is not a list of entity tags
    /// matches nothing, so the representation is sent.
    static func matches(_ values: [String], etag: String) -> Bool {
        let field = values.joined(separator: ",")
        if field.trimmingCharacters(in: .whitespaces) == "*" { return true }
        return opaqueTags(in: field)?.contains { $0 == opaqueTag(etag) } ?? false
    }

    /// The opaque tags (`"…"`, without a `W/`) of a comma-separated list of entity tags, or nil
    /// when the text is not one.
    static func opaqueTags(in list: String) -> [Substring]? {
        var tags: [Substring] = []
        var rest = Substring(list)
        while true {
            rest = rest.drop { $0 == "," || $0 == " " || $0 == "\t" }
            if rest.isEmpty { return tags }
            let tag = opaqueTag(rest)
            guard tag.first == "\"", let close = tag.dropFirst().firstIndex(of: "\"") else { return nil }
            tags.append(tag[...close])
            rest = tag[tag.index(after: close)...].drop { $0 == " " || $0 == "\t" }
            guard rest.isEmpty || rest.first == "," else { return nil }
        }
    }

    /// `tag` without its weak prefix.
    private static func opaqueTag<Text: StringProtocol>(_ tag: Text) -> Text.SubSequence {
        tag.hasPrefix("W/") ? tag.dropFirst(2) : tag[...]
    }
}
