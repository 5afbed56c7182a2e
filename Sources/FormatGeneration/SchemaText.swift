import ProjectFile

/// A JSON document in the order its text has it, each number, string and literal kept as
/// written, so that replacing a few parts of the schema leaves every other byte as it was. It
/// prints as the schema file is laid out: one key or item a line, two spaces a level.
indirect enum SchemaText: Equatable, Sendable {
    /// A number, string (with its quotes and escapes), `true`, `false` or `null`, as written.
    case scalar(String)
    case array([SchemaText])
    case object([Member])

    struct Member: Equatable, Sendable {
        /// The key as written, with its quotes.
        let key: String
        var value: SchemaText
    }

    /// A string, written as the schema file writes strings.
    static func string(_ text: String) -> SchemaText { .scalar(jsonStringLiteral(text)) }

    static func strings(_ texts: [String]) -> SchemaText { .array(texts.map(string)) }

    static let `false` = SchemaText.scalar("false")
    static let emptyObject = SchemaText.object([Member]())

    /// An object of these keys and values, in this order.
    static func object(_ members: KeyValuePairs<String, SchemaText>) -> SchemaText {
        .object(members.map { Member(key: jsonStringLiteral($0.key), value: $0.value) })
    }

    static func object(_ members: [(String, SchemaText)]) -> SchemaText {
        .object(members.map { Member(key: jsonStringLiteral($0.0), value: $0.1) })
    }

    /// `{"$ref": "#/$defs/name"}`.
    static func ref(_ name: String) -> SchemaText { .object(["$ref": .string("#/$defs/" + name)]) }

    // MARK: Reading

    struct ReadError: Error, CustomStringConvertible {
        let description: String
    }

    /// The document in `text`; it must be one JSON value.
    init(parsing text: String) throws {
        var reader = Reader(bytes: Array(text.utf8))
        self = try reader.value()
        reader.skipSpace()
        guard reader.index == reader.bytes.count else { throw reader.failure("text after the document") }
    }

    private struct Reader {
        let bytes: [UInt8]
        var index = 0

        func failure(_ what: String) -> ReadError {
            let line = bytes[..<index].filter { $0 == UInt8(ascii: "\n") }.count + 1
            return ReadError(description: "the schema is not JSON at line \(line): \(what)")
        }

        mutating func skipSpace() {
            while index < bytes.count, [0x20, 0x0A, 0x0D, 0x09].contains(bytes[index]) { index += 1 }
        }

        mutating func value() throws -> SchemaText {
            skipSpace()
            guard index < bytes.count else { throw failure("the document ends early") }
            switch bytes[index] {
            case UInt8(ascii: "{"):
                index += 1
                var members: [Member] = []
                skipSpace()
                if bytes[index] == UInt8(ascii: "}") { index += 1; return .emptyObject }
                while true {
                    skipSpace()
                    let key = try stringToken()
                    skipSpace()
                    try expect(":")
                    members.append(Member(key: key, value: try value()))
                    skipSpace()
                    if try endOrComma("}") { return .object(members) }
                }
            case UInt8(ascii: "["):
                index += 1
                var items: [SchemaText] = []
                skipSpace()
                if bytes[index] == UInt8(ascii: "]") { index += 1; return .array([SchemaText]()) }
                while true {
                    items.append(try value())
                    skipSpace()
                    if try endOrComma("]") { return .array(items) }
                }
            case UInt8(ascii: "\""):
                return .scalar(try stringToken())
            default:
                let start = index
                while index < bytes.count, !",]} \n\r\t".utf8.contains(bytes[index]) { index += 1 }
                guard index > start else { throw failure("a value was expected") }
                return .scalar(String(decoding: bytes[start..<index], as: UTF8.self))
            }
        }

        mutating func stringToken() throws -> String {
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { throw failure("a string was expected") }
            let start = index
            index += 1
            while index < bytes.count, bytes[index] != UInt8(ascii: "\"") {
                index += bytes[index] == UInt8(ascii: "\\") ? 2 : 1
            }
            guard index < bytes.count else { throw failure("a string does not end") }
            index += 1
            return String(decoding: bytes[start..<index], as: UTF8.self)
        }

        mutating func expect(_ character: Unicode.Scalar) throws {
            guard index < bytes.count, bytes[index] == UInt8(ascii: character) else { throw failure("'\(character)' was expected") }
            index += 1
        }

        /// True at the closing bracket, false after a comma.
        mutating func endOrComma(_ close: Unicode.Scalar) throws -> Bool {
            guard index < bytes.count else { throw failure("the document ends early") }
            if bytes[index] == UInt8(ascii: close) { index += 1; return true }
            try expect(",")
            return false
        }
    }

    // MARK: Parts

    /// The part at `path` (object keys and array indices, as a JSON pointer's tokens).
    subscript(path: [String]) -> SchemaText? {
        guard let first = path.first else { return self }
        switch self {
        case .object(let members): return members.first { $0.key == jsonStringLiteral(first) }?.value[Array(path.dropFirst())]
        case .array(let items): return Int(first).flatMap { items.indices.contains($0) ? items[$0] : nil }?[Array(path.dropFirst())]
        case .scalar: return nil
        }
    }

    /// Replaces the part at `path`; a missing last key is added after the key `after` (at the
    /// end without it). False when the path leads nowhere.
    mutating func replace(at path: [String], with value: SchemaText, after: String? = nil) -> Bool {
        guard let first = path.first else {
            self = value
            return true
        }
        let rest = Array(path.dropFirst())
        switch self {
        case .object(var members):
            if let i = members.firstIndex(where: { $0.key == jsonStringLiteral(first) }) {
                guard members[i].value.replace(at: rest, with: value, after: after) else { return false }
            } else {
                guard rest.isEmpty else { return false }
                let position = after.flatMap { key in members.firstIndex { $0.key == jsonStringLiteral(key) } }.map { $0 + 1 } ?? members.endIndex
                members.insert(Member(key: jsonStringLiteral(first), value: value), at: position)
            }
            self = .object(members)
            return true
        case .array(var items):
            guard let i = Int(first), items.indices.contains(i), items[i].replace(at: rest, with: value, after: after) else { return false }
            self = .array(items)
            return true
        case .scalar:
            return false
        }
    }

    /// The keys of the object at `path` whose values carry a `$comment` starting with `prefix`.
    func keys(at path: [String], commentedWith prefix: String) -> [String] {
        guard case .object(let members)? = self[path] else { return [] }
        return members.compactMap { member in
            guard case .object(let inner) = member.value,
                  case .scalar(let comment)? = inner.first(where: { $0.key == jsonStringLiteral("$comment") })?.value,
                  comment.hasPrefix(jsonStringLiteral(prefix).dropLast()) else { return nil }
            return String(member.key.dropFirst().dropLast())
        }
    }

    /// Removes the member `key` of the object at `path`, if it is there.
    mutating func remove(_ key: String, at path: [String]) {
        guard let first = path.first else {
            if case .object(let members) = self { self = .object(members.filter { $0.key != jsonStringLiteral(key) }) }
            return
        }
        switch self {
        case .object(var members):
            guard let i = members.firstIndex(where: { $0.key == jsonStringLiteral(first) }) else { return }
            members[i].value.remove(key, at: Array(path.dropFirst()))
            self = .object(members)
        case .array(var items):
            guard let i = Int(first), items.indices.contains(i) else { return }
            items[i].remove(key, at: Array(path.dropFirst()))
            self = .array(items)
        case .scalar:
            return
        }
    }

    // MARK: Writing

    /// The text, indented by two spaces a level, as the schema file is.
    func printed(indent: Int = 0) -> String {
        let inner = String(repeating: " ", count: indent + 2), outer = String(repeating: " ", count: indent)
        switch self {
        case .scalar(let text):
            return text
        case .array(let items):
            guard !items.isEmpty else { return "[]" }
            return "[\n" + items.map { inner + $0.printed(indent: indent + 2) }.joined(separator: ",\n") + "\n" + outer + "]"
        case .object(let members):
            guard !members.isEmpty else { return "{}" }
            return "{\n" + members.map { inner + $0.key + ": " + $0.value.printed(indent: indent + 2) }.joined(separator: ",\n") + "\n" + outer + "}"
        }
    }
}
