/// Line and column of a byte offset in UTF-8 text, counted the way libyaml and the JSON
/// reader count: lines break at `\n`, `\r\n` or a lone `\r`; columns count Unicode scalars.
enum TextPosition {
    static func location(ofByte offset: Int, in bytes: [UInt8], file: String) -> SourceLocation {
        var line = 1, column = 1
        for i in 0..<min(offset, bytes.count) {
            let b = bytes[i]
            if b == UInt8(ascii: "\n") || (b == UInt8(ascii: "\r") && (i + 1 >= bytes.count || bytes[i + 1] != UInt8(ascii: "\n"))) {
                line += 1
                column = 1
            } else if b & 0xC0 != 0x80 && b != UInt8(ascii: "\r") {
                column += 1
            }
        }
        return SourceLocation(file: file, line: line, column: column)
    }

    /// Byte offset of the first invalid UTF-8 sequence, or nil when the bytes are valid.
    static func firstInvalidUTF8(in bytes: [UInt8]) -> Int? {
        var iterator = bytes.makeIterator()
        var decoder = UTF8()
        var offset = 0
        while true {
            switch decoder.decode(&iterator) {
            case .scalarValue(let scalar): offset += UTF8.width(scalar)
            case .emptyInput: return nil
            case .error: return offset
            }
        }
    }

    /// The last place in `text`: the end of its last line (lines broken as above).
    static func end(of text: String, file: String) -> SourceLocation {
        var text = text
        return text.withUTF8 { end(ofUTF8: $0, file: file) }
    }

    /// `end(of:file:)` of the text whose UTF-8 is `bytes` (a loop over a buffer: fast in debug builds too).
    static func end(ofUTF8 bytes: UnsafeBufferPointer<UInt8>, file: String) -> SourceLocation {
        var line = 1, column = 1, previous: UInt8 = 0
        for byte in bytes {
            if byte == UInt8(ascii: "\n") {
                if previous != UInt8(ascii: "\r") { line += 1; column = 1 }
            } else if byte == UInt8(ascii: "\r") {
                line += 1
                column = 1
            } else if byte & 0xC0 != 0x80 {
                column += 1
            }
            previous = byte
        }
        return SourceLocation(file: file, line: line, column: column)
    }

    /// `location` moved inside `text`: a line past the last one becomes the end of the last
    /// line, a column past the end of its line the end of that line.
    static func clamped(_ location: SourceLocation, in text: String) -> SourceLocation {
        var lengths: [Int] = [0]
        var previous: UInt8 = 0
        for byte in text.utf8 {
            if byte == UInt8(ascii: "\n") {
                if previous != UInt8(ascii: "\r") { lengths.append(0) }
            } else if byte == UInt8(ascii: "\r") {
                lengths.append(0)
            } else if byte & 0xC0 != 0x80 {
                lengths[lengths.count - 1] += 1
            }
            previous = byte
        }
        var result = location
        result.line = min(max(1, location.line), lengths.count)
        result.column = min(max(1, location.column), lengths[result.line - 1] + 1)
        if location.line > lengths.count { result.column = lengths[result.line - 1] + 1 }
        return result
    }
}
