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
}
