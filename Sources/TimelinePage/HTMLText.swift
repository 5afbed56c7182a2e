/// Text from the project (names, overlay text, paths) made safe for HTML element content and
/// double- or single-quoted attribute values; control characters other than line breaks and
/// tabs, which HTML does not allow, become U+FFFD.
public enum HTMLText {
    public static func escape(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for c in text.unicodeScalars {
            switch c {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            case _ where c.value < 0x20 && c != "\n" && c != "\t": out += "\u{FFFD}"
            default: out.unicodeScalars.append(c)
            }
        }
        return out
    }

    /// At most `limit` characters of `text` on one line (line breaks and tabs become spaces),
    /// with `…` when cut. Not escaped.
    static func abbreviated(_ text: String, limit: Int) -> String {
        let oneLine = String(text.map { $0.isNewline || $0 == "\t" ? " " : $0 })
        return oneLine.count <= limit ? oneLine : String(oneLine.prefix(limit - 1)) + "…"
    }
}
