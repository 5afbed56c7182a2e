import ProjectFile

/// A posted project as the file its child render reads, named as the service names it
/// (`request`, `project_yaml`, `templates/NAME`) and with every node at the line and column it
/// has in what was posted, so what the child reports reads as what the service reports. YAML
/// text is written as it is; a JSON value as the text it was read from, all but the value
/// blanked (its lines kept). (Without an extension a file is read as JSON when it starts with
/// `{` or `[`: YAML text that does is named `….yaml`.)
struct PostedProjectFile: Equatable {
    /// Relative: the child runs in the folder the file is written to.
    var name: String
    var text: String

    init(_ document: Document) {
        let source = document.source
        guard document.format == .json else {
            let first = source.text.unicodeScalars.first { !$0.properties.isWhitespace && $0 != "\u{FEFF}" }
            (name, text) = (first == "{" || first == "[" ? source.name + ".yaml" : source.name, source.text)
            return
        }
        name = source.name
        let scalars = Array(source.text.unicodeScalars)
        let start = Self.offset(of: document.root.location, in: scalars)
        let end = Self.end(ofValueAt: start, in: scalars)
        var kept = String.UnicodeScalarView()
        for (offset, scalar) in scalars.enumerated() {
            kept.append((start..<end).contains(offset) || scalar == "\n" || scalar == "\r" ? scalar : " ")
        }
        text = String(kept)
    }

    /// The offset of a 1-based line and column (columns count Unicode scalars).
    private static func offset(of location: SourceLocation, in scalars: [Unicode.Scalar]) -> Int {
        var (line, offset) = (1, 0)
        while line < location.line, offset < scalars.count {
            if scalars[offset] == "\n" { line += 1 }
            offset += 1
        }
        return min(offset + location.column - 1, scalars.count)
    }

    /// Where the JSON value that starts at `start` ends: past its closing bracket or quote, or,
    /// for a number or a literal, at the first character that is none of it.
    private static func end(ofValueAt start: Int, in scalars: [Unicode.Scalar]) -> Int {
        var (depth, inString, escaped) = (0, false, false)
        var offset = start
        while offset < scalars.count {
            let scalar = scalars[offset]
            offset += 1
            if inString {
                if escaped { escaped = false } else if scalar == "\\" { escaped = true } else if scalar == "\"" { inString = false }
                if !inString, depth == 0 { return offset }
                continue
            }
            switch scalar {
            case "\"": inString = true
            case "{", "[": depth += 1
            case "}", "]":
                depth -= 1
                if depth <= 0 { return depth < 0 ? offset - 1 : offset }
            case ",", " ", "\t", "\n", "\r":
                if depth == 0 { return offset - 1 }
            default: break
            }
        }
        return offset
    }
}
