/// The text of a loaded file, kept so diagnostics can quote the offending line.
public struct SourceText: Sendable {
    /// The name locations use (the path as given).
    public let name: String
    /// The whole text (for a loaded file: its bytes, which were checked to be UTF-8).
    public let text: String

    public init(name: String, text: String) {
        self.name = name
        self.text = text
    }

    /// Line `number` (1-based) without its line break, or nil past the end. Lines break at
    /// `\n`, `\r\n` or a lone `\r`, as the YAML and JSON readers count them. Found by a scan:
    /// only the few lines that diagnostics quote are ever looked up.
    public func line(_ number: Int) -> Substring? {
        guard number >= 1 else { return nil }
        let utf8 = text.utf8
        var current = 1
        var start = utf8.startIndex
        var index = utf8.startIndex
        while index < utf8.endIndex {
            let byte = utf8[index]
            if byte == UInt8(ascii: "\n") || byte == UInt8(ascii: "\r") {
                if current == number { return Substring(text[start..<index]) }
                var next = utf8.index(after: index)
                if byte == UInt8(ascii: "\r"), next < utf8.endIndex, utf8[next] == UInt8(ascii: "\n") { next = utf8.index(after: next) }
                current += 1
                start = next
                index = next
            } else {
                index = utf8.index(after: index)
            }
        }
        return current == number ? Substring(text[start...]) : nil
    }
}
