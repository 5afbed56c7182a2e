/// Translates libyaml's marks into Reel's line and column.
///
/// libyaml follows YAML 1.1 and also breaks lines at NEL (U+0085), LINE SEPARATOR (U+2028)
/// and PARAGRAPH SEPARATOR (U+2029); Reel counts lines as YAML 1.2 and JSON do (`\n`,
/// `\r\n`, `\r`), and so do the diagnostics that quote a line. In a text holding one of the
/// three, a libyaml mark is turned into a byte offset and back into Reel's line and column.
struct LibyamlMarks {
    private let bytes: [UInt8]
    /// Byte offsets where libyaml's lines start.
    private let libyamlLineStarts: [Int]
    /// Byte offsets where Reel's lines start.
    private let lineStarts: [Int]

    /// nil when the text has none of the three, so libyaml's marks are Reel's.
    init?(bytes: [UInt8]) {
        // All three begin with 0xC2 or 0xE2: most texts have neither and need no line table.
        guard bytes.withUnsafeBufferPointer({ $0.contains(0xC2) || $0.contains(0xE2) }) else { return nil }
        var libyaml = [bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0], ours = [0]
        var extra = false
        var i = 0
        while i < bytes.count {
            let b = bytes[i]
            var width = 1
            if b == UInt8(ascii: "\r") && i + 1 < bytes.count && bytes[i + 1] == UInt8(ascii: "\n") { width = 2 }
            if b == UInt8(ascii: "\n") || b == UInt8(ascii: "\r") {
                libyaml.append(i + width)
                ours.append(i + width)
            } else if b == 0xC2, i + 1 < bytes.count, bytes[i + 1] == 0x85 {
                width = 2
                libyaml.append(i + width)
                extra = true
            } else if b == 0xE2, i + 2 < bytes.count, bytes[i + 1] == 0x80, bytes[i + 2] == 0xA8 || bytes[i + 2] == 0xA9 {
                width = 3
                libyaml.append(i + width)
                extra = true
            }
            i += width
        }
        guard extra else { return nil }
        self.bytes = bytes
        libyamlLineStarts = libyaml
        lineStarts = ours
    }

    func location(line: Int, column: Int, file: String) -> SourceLocation {
        let l = min(max(line, 1), libyamlLineStarts.count)
        var offset = libyamlLineStarts[l - 1]
        let end = l < libyamlLineStarts.count ? libyamlLineStarts[l] : bytes.count
        var remaining = column - 1
        while remaining > 0 && offset < end {
            offset += 1
            while offset < end && bytes[offset] & 0xC0 == 0x80 { offset += 1 }
            remaining -= 1
        }
        // Reel's line: the last line start at or before the offset.
        var low = 0, high = lineStarts.count - 1
        while low < high {
            let mid = (low + high + 1) / 2
            if lineStarts[mid] <= offset { low = mid } else { high = mid - 1 }
        }
        var ourColumn = 1
        var j = lineStarts[low]
        while j < offset {
            if bytes[j] & 0xC0 != 0x80 { ourColumn += 1 }
            j += 1
        }
        return SourceLocation(file: file, line: low + 1, column: ourColumn)
    }
}
