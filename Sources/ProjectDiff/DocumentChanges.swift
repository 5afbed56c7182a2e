import JSONSchema
import ProjectFile

/// One value that differs between two documents, by its path (`overlays[0].text`).
public struct ValueChange: Sendable, Equatable {
    public enum Kind: String, Sendable, Equatable {
        case changed, added, removed
    }

    public var path: String
    public var kind: Kind
}

/// The values that differ between two document trees, leaf by leaf (a list of scalars is one
/// leaf), in document order:
/// where locations alone differ (a line moved) nothing is reported; an array element or a
/// member present on one side only is reported once, as added or removed.
public enum DocumentChanges {
    public static func between(_ old: Node?, _ new: Node?, path: String = DocumentPath.root) -> [ValueChange] {
        switch (old, new) {
        case (nil, nil): return []
        case (nil, .some): return [ValueChange(path: path, kind: .added)]
        case (.some, nil): return [ValueChange(path: path, kind: .removed)]
        case (let a?, let b?): return between(a, b, path: path)
        }
    }

    private static func between(_ old: Node, _ new: Node, path: String) -> [ValueChange] {
        switch (old.value, new.value) {
        case (.object(let a), .object(let b)):
            var changes: [ValueChange] = []
            let newKeys = Set(b.map(\.key))
            for member in a where !newKeys.contains(member.key) {
                changes.append(ValueChange(path: DocumentPath.appending(key: member.key, to: path), kind: .removed))
            }
            for member in b {
                changes += between(a.first { $0.key == member.key }?.value, member.value,
                                   path: DocumentPath.appending(key: member.key, to: path))
            }
            return changes
        case (.array(let a), .array(let b)) where a.allSatisfy(isScalar) && b.allSatisfy(isScalar):
            // A list of numbers or words (a size, a position) is one value.
            return same(old, new) ? [] : [ValueChange(path: path, kind: .changed)]
        case (.array(let a), .array(let b)):
            return (0..<max(a.count, b.count)).flatMap { i in
                between(i < a.count ? a[i] : nil, i < b.count ? b[i] : nil, path: DocumentPath.appending(index: i, to: path))
            }
        default:
            return same(old, new) ? [] : [ValueChange(path: path, kind: .changed)]
        }
    }

    private static func isScalar(_ node: Node) -> Bool {
        switch node.value {
        case .array, .object: false
        default: true
        }
    }

    /// The same value, wherever it is written.
    public static func same(_ a: Node, _ b: Node) -> Bool {
        switch (a.value, b.value) {
        case (.null, .null): return true
        case (.bool(let x), .bool(let y)): return x == y
        case (.number(let x), .number(let y)), (.string(let x), .string(let y)): return x == y
        case (.array(let x), .array(let y)): return x.count == y.count && zip(x, y).allSatisfy { same($0, $1) }
        case (.object(let x), .object(let y)):
            return x.count == y.count && x.allSatisfy { m in y.contains { $0.key == m.key && same($0.value, m.value) } }
        default: return false
        }
    }

    /// The value at `path` (`video[0].clips[2].from`) in `root`, if there is one.
    public static func value(at path: String, in root: Node) -> Node? {
        var node = root
        for step in PathSteps.parse(path) {
            switch (step, node.value) {
            case (.key(let k), .object(let members)):
                guard let m = members.first(where: { $0.key == k }) else { return nil }
                node = m.value
            case (.index(let i), .array(let items)):
                guard items.indices.contains(i) else { return nil }
                node = items[i]
            default:
                return nil
            }
        }
        return node
    }
}

/// The steps of a document path: `video[0].clips[2]` is key video, index 0, key clips, index 2.
enum PathSteps: Equatable {
    case key(String)
    case index(Int)

    static func parse(_ path: String) -> [PathSteps] {
        var steps: [PathSteps] = []
        var rest = Substring(path)
        while !rest.isEmpty {
            if rest.hasPrefix(".") { rest = rest.dropFirst(); continue }
            if rest.hasPrefix("[\"") {
                let body = rest.dropFirst(2)
                guard let close = body.range(of: "\"]") else { return steps }
                steps.append(.key(String(body[..<close.lowerBound])))
                rest = body[close.upperBound...]
            } else if rest.hasPrefix("[") {
                let body = rest.dropFirst()
                guard let close = body.firstIndex(of: "]"), let i = Int(body[..<close]) else { return steps }
                steps.append(.index(i))
                rest = body[body.index(after: close)...]
            } else {
                let end = rest.firstIndex { $0 == "." || $0 == "[" } ?? rest.endIndex
                steps.append(.key(String(rest[..<end])))
                rest = rest[end...]
            }
        }
        return steps
    }
}
