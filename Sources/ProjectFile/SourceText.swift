/// The text of a loaded file, kept so diagnostics can quote the offending line.
public struct SourceText: Sendable {
    /// The name locations use (the path as given).
    public let name: String
    private let lines: [Substring]

    public init(name: String, text: String) {
        self.name = name
        // Split on \n, \r\n and lone \r, like the YAML and JSON readers count lines.
        var lines: [Substring] = []
        let utf8 = text.utf8
        var start = utf8.startIndex
        var index = utf8.startIndex
        while index < utf8.endIndex {
            let byte = utf8[index]
            if byte == UInt8(ascii: "\n") || byte == UInt8(ascii: "\r") {
                lines.append(Substring(text[start..<index]))
                var next = utf8.index(after: index)
                if byte == UInt8(ascii: "\r"), next < utf8.endIndex, utf8[next] == UInt8(ascii: "\n") { next = utf8.index(after: next) }
                start = next
                index = next
            } else {
                index = utf8.index(after: index)
            }
        }
        lines.append(Substring(text[start..<utf8.endIndex]))
        self.lines = lines
    }

    /// Line `number` (1-based) without its line break, or nil past the end.
    public func line(_ number: Int) -> Substring? {
        number >= 1 && number <= lines.count ? lines[number - 1] : nil
    }
}
