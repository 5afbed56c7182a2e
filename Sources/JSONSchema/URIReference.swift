import Foundation

/// RFC 3986 reference resolution, enough for `$id` and `$ref` (http(s), urn, tag, file).
enum URIReference {
    /// `reference` resolved against the absolute `base`.
    static func resolve(_ reference: String, against base: String) -> String {
        if hasScheme(reference) { return removeDotSegments(inPathOf: reference) }
        let (baseNoFragment, _) = splitFragment(base)
        if reference.isEmpty { return baseNoFragment }
        if reference.hasPrefix("#") { return baseNoFragment + reference }
        let scheme = baseNoFragment.prefix { $0 != ":" }
        let afterScheme = baseNoFragment.dropFirst(scheme.count + 1)
        if reference.hasPrefix("//") { return removeDotSegments(inPathOf: scheme + ":" + reference) }
        // Split the base into authority and path.
        var authority = ""
        var path = Substring(afterScheme)
        if afterScheme.hasPrefix("//") {
            let rest = afterScheme.dropFirst(2)
            let end = rest.firstIndex { $0 == "/" || $0 == "?" } ?? rest.endIndex
            authority = "//" + rest[..<end]
            path = rest[end...]
        }
        if let query = path.firstIndex(of: "?") { path = path[..<query] }
        let merged: String
        if reference.hasPrefix("?") {
            merged = String(path) + reference
        } else if reference.hasPrefix("/") {
            merged = reference
        } else if let slash = path.lastIndex(of: "/") {
            merged = String(path[...slash]) + reference
        } else {
            merged = (authority.isEmpty ? "" : "/") + reference
        }
        return removeDotSegments(inPathOf: scheme + ":" + authority + merged)
    }

    static func splitFragment(_ uri: String) -> (String, String?) {
        guard let hash = uri.firstIndex(of: "#") else { return (uri, nil) }
        return (String(uri[..<hash]), String(uri[uri.index(after: hash)...]))
    }

    static func hasScheme(_ text: String) -> Bool {
        guard let colon = text.firstIndex(of: ":"), colon != text.startIndex else { return false }
        let scheme = text[..<colon]
        return scheme.first!.isLetter && scheme.allSatisfy { $0.isLetter || $0.isNumber || "+-.".contains($0) }
    }

    /// Applies RFC 3986 §5.2.4 to the path of a hierarchical URI; others are returned as they are.
    private static func removeDotSegments(inPathOf uri: String) -> String {
        guard let range = uri.range(of: "://") else { return uri }
        let afterAuthority = uri[range.upperBound...]
        guard let pathStart = afterAuthority.firstIndex(of: "/") else { return uri }
        let pathEnd = afterAuthority[pathStart...].firstIndex { $0 == "?" || $0 == "#" } ?? afterAuthority.endIndex
        var output: [Substring] = []
        let segments = afterAuthority[pathStart..<pathEnd].split(separator: "/", omittingEmptySubsequences: false).dropFirst()
        for (index, segment) in segments.enumerated() {
            let isLast = index == segments.count - 1
            if segment == "." { if isLast { output.append("") }; continue }
            if segment == ".." { if !output.isEmpty { output.removeLast() }; if isLast { output.append("") }; continue }
            output.append(segment)
        }
        return String(uri[..<pathStart]) + "/" + output.joined(separator: "/") + afterAuthority[pathEnd...]
    }
}
