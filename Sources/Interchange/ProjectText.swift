import ProjectFile

/// A project document to write: mappings keep their key order, entries may carry a comment
/// (YAML only), and short mappings of scalars are written on one line. The same tree is
/// written as YAML or as JSON, byte for byte the same on every run.
indirect enum TextValue {
    /// A number, written as it is.
    case number(String)
    case null
    case string(String)
    case bool(Bool)
    case list([TextValue])
    case map([TextEntry])
}

struct TextEntry {
    var key: String
    var value: TextValue
    var comment: String?

    init(_ key: String, _ value: TextValue, comment: String? = nil) {
        self.key = key
        self.value = value
        self.comment = comment
    }
}

private extension Character {
    var isASCIIDigit: Bool { isASCII && isNumber }
}

enum ProjectText {
    /// YAML with `header` lines as comments on top.
    static func yaml(_ root: [TextEntry], header: [String]) -> String {
        var out = header.map { "# \($0)\n" }.joined()
        write(root, indent: 0, into: &out)
        return out
    }

    private static func write(_ entries: [TextEntry], indent: Int, into out: inout String) {
        let pad = String(repeating: " ", count: indent)
        for entry in entries {
            let comment = entry.comment.map { "  # \($0)" } ?? ""
            switch entry.value {
            case .list(let items) where !items.isEmpty && flow(entry.value) == nil:
                out += "\(pad)\(entry.key):\(comment)\n"
                for item in items { writeItem(item, indent: indent + 2, into: &out) }
            case .map(let inner) where !inner.isEmpty && flow(entry.value) == nil:
                out += "\(pad)\(entry.key):\(comment)\n"
                write(inner, indent: indent + 2, into: &out)
            default:
                out += "\(pad)\(entry.key): \(flow(entry.value)!)\(comment)\n"
            }
        }
    }

    private static func writeItem(_ item: TextValue, indent: Int, into out: inout String) {
        let pad = String(repeating: " ", count: indent)
        if case .map(let entries) = item, !entries.isEmpty {
            var text = ""
            write(entries, indent: indent + 2, into: &text)
            out += pad + "- " + text.dropFirst(indent + 2)
        } else {
            out += "\(pad)- \(flow(item) ?? "")\n"
        }
    }

    /// The value on one line, if it is a scalar or a short list of scalars.
    private static func flow(_ value: TextValue) -> String? {
        switch value {
        case .number(let n): return n
        case .null: return "null"
        case .bool(let b): return b ? "true" : "false"
        case .string(let s): return yamlScalar(s)
        case .list(let items):
            let parts = items.compactMap { item -> String? in if case .list = item { nil } else if case .map = item { nil } else { flow(item) } }
            guard parts.count == items.count, items.count <= 4 else { return nil }
            return "[" + parts.joined(separator: ", ") + "]"
        case .map(let entries):
            return entries.isEmpty ? "{}" : nil
        }
    }

    /// Plain when YAML 1.2 reads it back as the same string; double-quoted otherwise.
    static func yamlScalar(_ s: String) -> String {
        let plain = !s.isEmpty && s.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "_-./ ()".contains($0)) }
            && s.first!.isLetter && s.last != " " && !["true", "false", "null", "yes", "no", "on", "off", "y", "n"].contains(s.lowercased())
        let frames = s.count > 1 && s.last == "f" && s.dropLast().allSatisfy(\.isASCIIDigit)
        return plain || frames ? s : json(s)
    }

    static func json(_ s: String) -> String { jsonStringLiteral(s) }

    /// JSON, two spaces of indent.
    static func json(_ root: [TextEntry]) -> String { json(.map(root), indent: 0) + "\n" }

    static func json(_ value: TextValue, indent: Int) -> String {
        let pad = String(repeating: " ", count: indent + 2), end = String(repeating: " ", count: indent)
        switch value {
        case .number(let n): return n
        case .null: return "null"
        case .bool(let b): return b ? "true" : "false"
        case .string(let s): return json(s)
        case .list(let items):
            if items.isEmpty { return "[]" }
            return "[\n" + items.map { pad + json($0, indent: indent + 2) }.joined(separator: ",\n") + "\n\(end)]"
        case .map(let entries):
            if entries.isEmpty { return "{}" }
            return "{\n" + entries.map { pad + json($0.key) + ": " + json($0.value, indent: indent + 2) }.joined(separator: ",\n") + "\n\(end)}"
        }
    }
}
