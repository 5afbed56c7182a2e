extension JSONInstance {
    /// The member named `key` of an object.
    public subscript(key: String) -> Self? {
        objectMembers.first { $0.key == key }?.value
    }

    /// The text of a string; nil for anything else.
    public var stringValue: String? {
        if case .string(let s) = value { return s }
        return nil
    }

    var boolValue: Bool? {
        if case .bool(let b) = value { return b }
        return nil
    }

    var arrayItems: [Self] {
        if case .array(let items) = value { return items }
        return []
    }

    var objectMembers: [Member] {
        if case .object(let members) = value { return members }
        return []
    }

    /// JSON-value equality for `const`, `enum` and `uniqueItems`: numbers equal by value
    /// (`1 == 1.0`), objects regardless of key order, strings by Unicode scalars.
    func jsonEquals(_ other: Self) -> Bool {
        switch (value, other.value) {
        case (.null, .null): return true
        case (.bool(let a), .bool(let b)): return a == b
        case (.number(let a), .number(let b)):
            guard let x = DecimalNumber(a), let y = DecimalNumber(b) else { return a == b }
            return x == y
        case (.string(let a), .string(let b)): return a.unicodeScalars.elementsEqual(b.unicodeScalars)
        case (.array(let a), .array(let b)): return a.count == b.count && zip(a, b).allSatisfy { $0.jsonEquals($1) }
        case (.object(let a), .object(let b)):
            guard a.count == b.count else { return false }
            return a.allSatisfy { member in
                b.contains { $0.key.unicodeScalars.elementsEqual(member.key.unicodeScalars) && $0.value.jsonEquals(member.value) }
            }
        default: return false
        }
    }

    /// The JSON type name (`integer` for whole numbers, which are also `number`s).
    var jsonType: String {
        switch value {
        case .null: return "null"
        case .bool: return "boolean"
        case .number(let text): return (DecimalNumber(text)?.isInteger ?? false) ? "integer" : "number"
        case .string: return "string"
        case .array: return "array"
        case .object: return "object"
        }
    }

    /// The JSON type, whole numbers and others alike `number`.
    var jsonFamily: String { jsonType == "integer" ? "number" : jsonType }

    /// A short rendering for messages: `"abc"`, `42`, `true`, `a list of 3`, `a mapping`.
    public var excerpt: String {
        switch value {
        case .null: return "null"
        case .bool(let b): return String(b)
        case .number(let text): return text
        case .string(let s):
            let short = s.count > 40 ? s.prefix(37) + "..." : Substring(s)
            return "\"\(short)\""
        case .array(let items): return items.isEmpty ? "an empty list" : "a list of \(items.count)"
        case .object(let members): return members.isEmpty ? "an empty mapping" : "a mapping"
        }
    }

    /// Compact JSON text, for values inside messages (enum and const values).
    var compactJSON: String {
        switch value {
        case .null, .bool, .number: return excerpt
        case .string(let s): return "\"\(s)\""
        case .array(let items): return "[" + items.map(\.compactJSON).joined(separator: ", ") + "]"
        case .object(let members): return "{" + members.map { "\($0.key): \($0.value.compactJSON)" }.joined(separator: ", ") + "}"
        }
    }
}
