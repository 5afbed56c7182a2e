/// Where the characters of a string scalar stand in its file, so that an error inside a value
/// (a length expression's unknown unit) points at the character rather than at the value.
///
/// A scalar on one line is followed as it is written: plain, single-quoted (`''` is one `'`)
/// or double-quoted, YAML's or JSON's (an escape, `\"` or `\u00e9`, is one character). A
/// scalar written otherwise (a block scalar, a string folded over lines) has no column per
/// character: its place is the value's start.
public enum ScalarColumns {
    /// The place of character `offset` (Unicode scalars from 0; `text`'s length is just after
    /// its end) of `text`, the string as written by the scalar that starts at `start`.
    public static func location(ofCharacter offset: Int, in text: String, at start: SourceLocation, source: SourceText) -> SourceLocation {
        guard start.line > 0, let line = source.line(start.line) else { return start }
        let raw = Array(line.unicodeScalars), expected = Array(text.unicodeScalars)
        var i = start.column - 1
        guard i >= 0, i < raw.count, offset <= expected.count else { return start }
        let quote = raw[i] == "\"" || raw[i] == "'" ? raw[i] : nil
        if quote != nil { i += 1 }
        for k in 0..<offset {
            guard i < raw.count else { return start }
            if quote == "\"", raw[i] == "\\", i + 1 < raw.count {
                // \uXXXX, \UXXXXXXXX, \xXX, or one escaped character.
                switch raw[i + 1] {
                case "u": i += 6
                case "U": i += 10
                case "x": i += 4
                default: i += 2
                }
            } else if quote == "'", raw[i] == "'", i + 1 < raw.count, raw[i + 1] == "'", expected[k] == "'" {
                i += 2
            } else {
                guard raw[i] == expected[k] else { return start }
                i += 1
            }
        }
        guard i <= raw.count else { return start }
        return SourceLocation(file: start.file, line: start.line, column: i + 1)
    }
}
