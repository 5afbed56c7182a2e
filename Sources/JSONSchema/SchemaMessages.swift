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

    static func found(_ node: some JSONInstance) -> String {
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

    /// "expected a time: …" from a schema description "A time: …".
    static func expected(_ description: String) -> String {
        guard let first = description.first, description.dropFirst().first?.isUppercase != true else { return "expected " + description }
        return "expected " + first.lowercased() + description.dropFirst()
    }
}
