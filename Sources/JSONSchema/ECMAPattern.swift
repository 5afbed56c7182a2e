/// Rewrites an ECMA-262 regular expression (the dialect JSON Schema's `pattern` uses) into
/// ICU syntax for `NSRegularExpression`, where the two differ in ways schemas meet:
/// `\d`, `\w` and `\s` are ASCII/ECMA sets rather than Unicode ones, and `$` matches only
/// at the very end (ICU also matches before a final line break).
enum ECMAPattern {
    private static let digit = "0-9"
    private static let word = "a-zA-Z0-9_"
    private static let space = #"\t\n\x{0B}\f\r \x{A0}\x{1680}\x{2000}-\x{200A}\x{2028}\x{2029}\x{202F}\x{205F}\x{3000}\x{FEFF}"#

    static func icuPattern(_ source: String) -> String {
        var out = ""
        var inClass = false
        var characters = source.makeIterator()
        while let c = characters.next() {
            switch c {
            case "\\":
                guard let next = characters.next() else { out.append("\\"); break }
                let set: (members: String, negated: Bool)? = switch next {
                case "d": (digit, false)
                case "D": (digit, true)
                case "w": (word, false)
                case "W": (word, true)
                case "s": (space, false)
                case "S": (space, true)
                default: nil
                }
                if let set {
                    // Inside a class, a negated set nests as a set (ICU allows `[a[^0-9]]`).
                    out += inClass && !set.negated ? set.members : "[\(set.negated ? "^" : "")\(set.members)]"
                } else {
                    out.append("\\")
                    out.append(next)
                }
            case "[" where !inClass:
                inClass = true
                out.append(c)
            case "]" where inClass:
                inClass = false
                out.append(c)
            case "$" where !inClass:
                out += #"\z"#
            default:
                out.append(c)
            }
        }
        return out
    }
}
