/// The text of a loaded file, kept so diagnostics can quote the offending line.
public struct SourceText: Sendable {
    /// The name locations use (the path as given).
    public let name: String
    private let lines: [Substring]

    public init(name: String, text: String) {
        self.name = name
        // Split on \n, \r\n and lone \r like the YAML and JSON readers count lines.
        var lines: [Substring] = []
        var start = text.startIndex
        var index = text.startIndex
        while index < text.endIndex {
            let character = text[index]
            if character == "\n" || character == "\r\n" || character == "\r" {
                lines.append(text[start..<index])
                start = text.index(after: index)
            }
            index = text.index(after: index)
        }
        lines.append(text[start..<text.endIndex])
        self.lines = lines
    }

    /// Line `number` (1-based) without its line break, or nil past the end.
    public func line(_ number: Int) -> Substring? {
        number >= 1 && number <= lines.count ? lines[number - 1] : nil
    }
}
