/// Wording shared by the validator's messages.
enum SchemaMessages {
    static func typeName(_ type: String) -> String {
        switch type {
        case "object": return "a mapping"
        case "array": return "a list"
        case "string": return "a string"
        case "number": return "a number"
        case "integer": return "a whole number"
        case "boolean": return "true or false"
        case "null": return "null"
        default: return type
        }
    }

    static func found(_ node: Node) -> String {
        switch node.value {
        case .null: return "null"
        case .bool(let b): return "boolean \(b)"
        case .number(let n): return "number \(n)"
        case .string: return "string \(node.excerpt)"
        case .array, .object: return node.excerpt
        }
    }

    /// "a, b or c".
    static func alternatives(_ items: [String], conjunction: String = "or") -> String {
        guard items.count > 1 else { return items.first ?? "" }
        return items.dropLast().joined(separator: ", ") + " \(conjunction) " + items.last!
    }

    /// The candidate closest to `word` by edit distance, if close enough to be a likely typo.
    static func suggestion(for word: String, among candidates: [String]) -> String? {
        // No suggestion is further than 3 edits, and the distance is at least the difference in
        // length: longer or shorter candidates are skipped without computing (a 600 000-character
        // key against every allowed key took seconds and 50 MB).
        let length = word.unicodeScalars.count
        let near = candidates.filter { abs($0.unicodeScalars.count - length) <= 3 }
        let scored = near.map { ($0, editDistance(word.lowercased(), $0.lowercased())) }
        guard let best = scored.min(by: { $0.1 < $1.1 || ($0.1 == $1.1 && $0.0 < $1.0) }) else { return nil }
        let threshold = max(1, min(3, best.0.count / 3))
        return best.1 <= threshold ? best.0 : nil
    }

    /// Optimal string alignment distance: insertions, deletions, substitutions and
    /// transpositions of neighbours ("form" → "from") each cost one.
    static func editDistance(_ a: String, _ b: String) -> Int {
        let a = Array(a.unicodeScalars), b = Array(b.unicodeScalars)
        var d = Array(repeating: Array(repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in 0...a.count { d[i][0] = i }
        for j in 0...b.count { d[0][j] = j }
        for i in stride(from: 1, through: a.count, by: 1) {
            for j in stride(from: 1, through: b.count, by: 1) {
                d[i][j] = min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    d[i][j] = min(d[i][j], d[i - 2][j - 2] + 1)
                }
            }
        }
        return d[a.count][b.count]
    }

    /// "expected a time: …" from a schema description "A time: …".
    static func expected(_ description: String) -> String {
        guard let first = description.first, description.dropFirst().first?.isUppercase != true else { return "expected " + description }
        return "expected " + first.lowercased() + description.dropFirst()
    }
}
