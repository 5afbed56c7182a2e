/// API token names (`reel serve token create NAME`). A name is the tenant: renders and
/// templates are kept by it, so a new token made under a revoked token's name is the same
/// tenant with a new secret (a key rotation). Checked in one place, here, before a token is made.
public enum TokenName {
    public static let longest = 64

    /// The rule, as messages state it.
    static let rule = "a token name is 1 to \(longest) letters, digits, '-', '_', '.' and '@' (ASCII), not starting with '-'"

    /// Whether `name` can name a token: what `token list` prints on one line, unambiguously
    /// (no spaces, no control characters, nothing that looks like another letter), and what the
    /// command line does not take for an option.
    static func check(_ name: String) throws(TokenRefusal) {
        guard (1...longest).contains(name.count), name.first != "-",
              name.unicodeScalars.allSatisfy({ $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || "-_.@".unicodeScalars.contains($0)) })
        else { throw .notAName(name) }
    }
}

/// Why a token cannot be made under a name.
public enum TokenRefusal: Error, Equatable, CustomStringConvertible {
    /// Not a token name (`TokenName.rule`).
    case notAName(String)
    /// A live token has the name.
    case inUse(String)

    public var description: String {
        switch self {
        case .notAName(let name):
            "\(name.debugDescription) is not a token name: \(TokenName.rule)"
        case .inUse(let name):
            "a live token named \(name) exists; revoke it first (reel serve token revoke \(name)) to make a new token of that name, "
                + "the same tenant with its renders and templates, or choose another name"
        }
    }
}
