import ProjectFile

/// Decodes the API's request types (`Decodable`) from a body loaded with its positions, so a
/// field that is not what it should be is a `ProjectError` (`.usage`) at its line and column in
/// what was posted. A type reads what `Decodable` reads; one that needs the node itself (the
/// project, the vars, with their places) reads it as a `PostedNode`.
enum PostedDecoder {
    static func decode<T: Decodable>(_ type: T.Type, from document: Document) throws(ProjectError) -> T {
        do {
            return try NodeDecoder(node: document.root, codingPath: []).value(T.self)
        } catch let problem as FieldProblem {
            throw ProjectError(problem.category, Diagnostic(location: (problem.node ?? document.root).location, path: problem.path ?? "",
                                                            message: problem.message, hint: problem.hint), source: document.source)
        } catch {
            throw ProjectError(.usage, Diagnostic(location: document.root.location, path: "", message: "\(error)"), source: document.source)
        }
    }
}

/// What is wrong with a posted field: told at `node`, or, when the thrower leaves it out, at
/// the node being decoded, whose field (`webhook.url`) becomes the diagnostic's path. A
/// malformed request (`.usage`, a 400) unless the value is well formed but cannot be used
/// (`.invalidProject`, a 422: a webhook URL without a host).
struct FieldProblem: Error {
    var message: String
    var hint: String?
    var node: Node?
    var path: String?
    var category: ProjectError.Category

    init(_ message: String, hint: String? = nil, at node: Node? = nil, category: ProjectError.Category = .usage) {
        (self.message, self.hint, self.node, self.category) = (message, hint, node, category)
    }
}

/// A posted value as its node, with its place (a project, the vars): decodable only by
/// `PostedDecoder`.
struct PostedNode: Decodable {
    let node: Node

    init(from decoder: any Decoder) throws {
        guard let decoder = decoder as? NodeDecoder else { throw FieldProblem("a posted value is read from its document") }
        node = decoder.node
    }
}

/// A `Decoder` over one node of a loaded document.
struct NodeDecoder: Decoder {
    let node: Node
    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    /// The field as the client knows it: `webhook.url`, `rows[2]`.
    var name: String {
        codingPath.reduce("") { name, key in key.intValue.map { "\(name)[\($0)]" } ?? (name.isEmpty ? key.stringValue : "\(name).\(key.stringValue)") }
    }

    /// `format is 5, not a string`.
    func mismatch(_ expected: String) -> FieldProblem {
        FieldProblem("\(codingPath.isEmpty ? "the request body" : name) is \(node.excerpt), not \(expected)", at: node)
    }

    /// This node as a `T`: a string, a number or true/false directly, anything else through its
    /// own `init(from:)`; a problem thrown without a place is placed here.
    func value<T: Decodable>(_ type: T.Type) throws -> T {
        switch node.value {
        case .string(let text) where T.self == String.self: return text as! T
        case .bool(let flag) where T.self == Bool.self: return flag as! T
        default: break
        }
        if T.self == String.self { throw mismatch("a string") }
        if T.self == Bool.self { throw mismatch("true or false") }
        if let number = T.self as? any (LosslessStringConvertible & Numeric).Type {
            let whole = T.self is any BinaryInteger.Type
            guard case .number(let text) = node.value, let value = number.init(text) as? T else { throw mismatch(whole ? "a whole number" : "a number") }
            return value
        }
        do {
            return try T(from: self)
        } catch var problem as FieldProblem where problem.node == nil {
            (problem.node, problem.path) = (node, problem.path ?? name)
            throw problem
        }
    }

    func child(_ node: Node, _ key: any CodingKey) -> NodeDecoder { NodeDecoder(node: node, codingPath: codingPath + [key]) }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        guard case .object(let members) = node.value else { throw mismatch("an object") }
        return KeyedDecodingContainer(Keyed(decoder: self, members: members))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        guard case .array(let items) = node.value else { throw mismatch("a list") }
        return Unkeyed(decoder: self, items: items)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer { Single(decoder: self) }

    private struct Keyed<Key: CodingKey>: KeyedDecodingContainerProtocol {
        let decoder: NodeDecoder
        let members: [Node.Member]
        var codingPath: [any CodingKey] { decoder.codingPath }
        var allKeys: [Key] { members.compactMap { Key(stringValue: $0.key) } }

        func contains(_ key: Key) -> Bool { members.contains { $0.key == key.stringValue } }

        func member(_ key: Key) throws -> NodeDecoder {
            guard let member = members.last(where: { $0.key == key.stringValue }) else {
                throw FieldProblem("\(decoder.codingPath.isEmpty ? "the request" : decoder.name) has no \(key.stringValue)", at: decoder.node)
            }
            return decoder.child(member.value, key)
        }

        func decodeNil(forKey key: Key) throws -> Bool {
            guard case .null = try member(key).node.value else { return false }
            return true
        }

        func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T { try member(key).value(T.self) }

        func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws -> KeyedDecodingContainer<NestedKey> {
            try member(key).container(keyedBy: type)
        }

        func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer { try member(key).unkeyedContainer() }
        func superDecoder() throws -> any Decoder { decoder }
        func superDecoder(forKey key: Key) throws -> any Decoder { try member(key) }
    }

    private struct Unkeyed: UnkeyedDecodingContainer {
        let decoder: NodeDecoder
        let items: [Node]
        var currentIndex = 0
        var codingPath: [any CodingKey] { decoder.codingPath }
        var count: Int? { items.count }
        var isAtEnd: Bool { currentIndex >= items.count }

        private struct Index: CodingKey {
            let intValue: Int?
            var stringValue: String { String(intValue ?? 0) }
            init(_ index: Int) { intValue = index }
            init?(stringValue: String) { nil }
            init?(intValue: Int) { self.intValue = intValue }
        }

        mutating func next() throws -> NodeDecoder {
            guard !isAtEnd else { throw FieldProblem("\(decoder.name) has too few items", at: decoder.node) }
            defer { currentIndex += 1 }
            return decoder.child(items[currentIndex], Index(currentIndex))
        }

        mutating func decodeNil() throws -> Bool {
            guard !isAtEnd, case .null = items[currentIndex].value else { return false }
            currentIndex += 1
            return true
        }

        mutating func decode<T: Decodable>(_ type: T.Type) throws -> T { try next().value(T.self) }

        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws -> KeyedDecodingContainer<NestedKey> {
            try next().container(keyedBy: type)
        }

        mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer { try next().unkeyedContainer() }
        mutating func superDecoder() throws -> any Decoder { try next() }
    }

    private struct Single: SingleValueDecodingContainer {
        let decoder: NodeDecoder
        var codingPath: [any CodingKey] { decoder.codingPath }

        func decodeNil() -> Bool {
            guard case .null = decoder.node.value else { return false }
            return true
        }

        func decode<T: Decodable>(_ type: T.Type) throws -> T { try decoder.value(T.self) }
    }
}
