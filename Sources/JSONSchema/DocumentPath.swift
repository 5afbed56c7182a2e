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
}
