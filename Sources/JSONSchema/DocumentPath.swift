/// Builds document paths the way messages print them: `servers[0].ports[2]`.
public enum DocumentPath {
    public static let root = ""

    public static func appending(key: String, to path: String) -> String {
        let plain = !key.isEmpty && key.unicodeScalars.allSatisfy {
            // ASCII first: Unicode properties are looked up only for other letters.
            $0.isASCII ? ($0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "_" || $0 == "-") : $0.properties.isAlphabetic
        }
        if !plain { return "\(path)[\"\(key)\"]" }
        return path.isEmpty ? key : "\(path).\(key)"
    }

    public static func appending(index: Int, to path: String) -> String { "\(path)[\(index)]" }

    /// How a path reads inside a sentence: the root has no path, so it gets a name.
    public static func display(_ path: String) -> String { path.isEmpty ? "the document root" : path }

    /// Whether `inner` is `outer` or a path inside it (`overlays[0].text` is inside
    /// `overlays[0]`, `overlays[10]` is not); every path is inside the root.
    public static func isWithin(_ inner: String, _ outer: String) -> Bool {
        guard inner.hasPrefix(outer) else { return false }
        if outer.isEmpty || inner.count == outer.count { return true }
        let next = inner[inner.index(inner.startIndex, offsetBy: outer.count)]
        return next == "." || next == "["
    }
}

/// The path to the value being visited, kept as steps and rendered only for a message
/// (readers and the validator visit every value; a string for each would dominate their time).
public struct PathStack: Sendable {
    public enum Component: Sendable {
        case key(String)
        case index(Int)
    }

    public private(set) var components: [Component] = []

    public init() {}

    public mutating func push(_ component: Component) { components.append(component) }
    public mutating func pop() { components.removeLast() }

    public var rendered: String {
        components.reduce(DocumentPath.root) { path, component in
            switch component {
            case .key(let key): return DocumentPath.appending(key: key, to: path)
            case .index(let index): return DocumentPath.appending(index: index, to: path)
            }
        }
    }
}
