/// A lexical pass over YAML text, run before Yams composes it, that rejects mapping keys
/// which are not scalars: an explicit `? ` key, a flow collection used as a key
/// (`[a]: b`) or an alias used as a key (`*a : b`).
///
/// Why: Yams checks duplicate keys by hashing every key node, and an alias key expands its
/// anchor in full, so `? *lol9 : x` after a "billion laughs" anchor chain hangs inside Yams.
/// Project-file keys are names, so refusing these keys costs nothing. The scan knows just
/// enough YAML to find where nodes start: quotes, comments, flow brackets and block scalars.
struct YAMLKeyScan {
    private let bytes: [UInt8]
    private var index = 0
    private var flowDepth = 0
    /// Set after `|` or `>`: lines indented more than this column belong to that block scalar.
    private var blockScalarParent: Int?
    /// Column of the latest block-context key or `-`/`?` entry on the current line.
    private var entryColumn = 0
    private var lineStart = 0
    /// How many nodes begin in the text (aliases count once): an upper bound Yams will build.
    private(set) var nodeStarts = 0

    init(bytes: [UInt8]) { self.bytes = bytes }

    /// The byte offset and message of the first non-scalar key, if any.
    mutating func firstComplexKey() -> (offset: Int, message: String)? {
        while index < bytes.count {
            if let problem = scanLine() { return problem }
        }
        return nil
    }

    private func byte(_ i: Int) -> UInt8 { i < bytes.count ? bytes[i] : UInt8(ascii: "\n") }
    private func isBreak(_ b: UInt8) -> Bool { b == UInt8(ascii: "\n") || b == UInt8(ascii: "\r") }
    private func isBlank(_ b: UInt8) -> Bool { b == UInt8(ascii: " ") || b == UInt8(ascii: "\t") || isBreak(b) }
    private func isFlowIndicator(_ b: UInt8) -> Bool { [UInt8(ascii: ","), UInt8(ascii: "["), UInt8(ascii: "]"), UInt8(ascii: "{"), UInt8(ascii: "}")].contains(b) }
    private var column: Int { index - lineStart }

    private mutating func skipToLineEnd() {
        while index < bytes.count, !isBreak(bytes[index]) { index += 1 }
    }

    private mutating func nextLine() {
        skipToLineEnd()
        if index < bytes.count { index += 1 }
        lineStart = index
    }

    /// Scans one physical line (in flow context a line is just whitespace between tokens).
    private mutating func scanLine() -> (offset: Int, message: String)? {
        lineStart = index
        while byte(index) == UInt8(ascii: " ") { index += 1 }
        let indent = column
        if index >= bytes.count { return nil }
        if isBreak(bytes[index]) { nextLine(); return nil }
        if flowDepth == 0 {
            if let parent = blockScalarParent {
                if indent > parent { nextLine(); return nil }
                blockScalarParent = nil
            }
            if indent == 0, bytes[index] == UInt8(ascii: "%") { nextLine(); return nil }
        }
        var atNodeStart = true
        while index < bytes.count, !isBreak(bytes[index]) {
            let b = bytes[index]
            if b == UInt8(ascii: " ") || b == UInt8(ascii: "\t") { index += 1; continue }
            if b == UInt8(ascii: "#") { skipToLineEnd(); break }
            if column == 0, flowDepth == 0, bytes[index...].starts(with: "---".utf8) || bytes[index...].starts(with: "...".utf8), isBlank(byte(index + 3)) {
                index += 3; atNodeStart = true; continue
            }
            if atNodeStart {
                if let problem = scanNodeStart(&atNodeStart) { return problem }
            } else {
                scanAfterNode(&atNodeStart)
            }
            if let problem = pendingProblem { return problem }
        }
        if index < bytes.count { index += 1 }
        return nil
    }

    private var pendingProblem: (offset: Int, message: String)?

    /// At a place where a node may begin: indicators, properties, quoted or plain scalars.
    private mutating func scanNodeStart(_ atNodeStart: inout Bool) -> (offset: Int, message: String)? {
        let b = bytes[index]
        nodeStarts += 1
        let next = byte(index + 1)
        switch b {
        case UInt8(ascii: "-") where flowDepth == 0 && isBlank(next):
            entryColumn = column
            index += 1
        case UInt8(ascii: "?") where isBlank(next) || (flowDepth > 0 && isFlowIndicator(next)):
            return (index, "explicit '?' mapping keys are not supported")
        case UInt8(ascii: ":") where isBlank(next) || (flowDepth > 0 && isFlowIndicator(next)):
            index += 1
        case UInt8(ascii: "["), UInt8(ascii: "{"):
            flowDepth += 1
            index += 1
        case UInt8(ascii: "]"), UInt8(ascii: "}"):
            closeFlow(&atNodeStart)
        case UInt8(ascii: ","):
            index += 1
        case UInt8(ascii: "*"):
            let start = index
            index += 1
            while index < bytes.count, !isBlank(bytes[index]), !isFlowIndicator(bytes[index]) { index += 1 }
            if followedByValueIndicator() { return (start, "an alias cannot be used as a mapping key") }
            atNodeStart = false
        case UInt8(ascii: "&"), UInt8(ascii: "!"):
            while index < bytes.count, !isBlank(bytes[index]), !(flowDepth > 0 && isFlowIndicator(bytes[index])) { index += 1 }
        case UInt8(ascii: "|"), UInt8(ascii: ">") where flowDepth == 0:
            blockScalarParent = entryColumn
            skipToLineEnd()
        case UInt8(ascii: "\""), UInt8(ascii: "'"):
            if flowDepth == 0 { entryColumn = column }
            skipQuoted(b)
            atNodeStart = false
        default:
            if flowDepth == 0 { entryColumn = column }
            skipPlain()
            atNodeStart = false
        }
        return nil
    }

    /// After a complete node: a value indicator, a separator or the end of a flow collection.
    private mutating func scanAfterNode(_ atNodeStart: inout Bool) {
        let b = bytes[index]
        switch b {
        case UInt8(ascii: ":"):
            index += 1
            atNodeStart = true
        case UInt8(ascii: ","):
            index += 1
            atNodeStart = true
        case UInt8(ascii: "]"), UInt8(ascii: "}"):
            closeFlow(&atNodeStart)
        default:
            skipPlain()
        }
    }

    private mutating func closeFlow(_ atNodeStart: inout Bool) {
        let start = index
        flowDepth = max(0, flowDepth - 1)
        index += 1
        atNodeStart = false
        if followedByValueIndicator() { pendingProblem = (start, "a list or mapping cannot be used as a mapping key") }
    }

    /// Whether the next non-space character is `:` acting as a value indicator (same line).
    private func followedByValueIndicator() -> Bool {
        var i = index
        while byte(i) == UInt8(ascii: " ") || byte(i) == UInt8(ascii: "\t") { i += 1 }
        guard i < bytes.count, bytes[i] == UInt8(ascii: ":") else { return false }
        return isBlank(byte(i + 1)) || flowDepth > 0
    }

    private mutating func skipQuoted(_ quote: UInt8) {
        index += 1
        while index < bytes.count {
            let b = bytes[index]
            if quote == UInt8(ascii: "\""), b == UInt8(ascii: "\\") { index += 2; continue }
            if b == quote {
                if quote == UInt8(ascii: "'"), byte(index + 1) == quote { index += 2; continue }
                index += 1
                return
            }
            if isBreak(b) { lineStart = index + 1 }
            index += 1
        }
    }

    /// A plain scalar ends at `: `, ` #`, the line end, and in flow context at `,[]{}`.
    private mutating func skipPlain() {
        index += 1
        while index < bytes.count {
            let b = bytes[index]
            if isBreak(b) { return }
            if b == UInt8(ascii: ":"), isBlank(byte(index + 1)) || (flowDepth > 0 && isFlowIndicator(byte(index + 1))) { return }
            if b == UInt8(ascii: "#"), bytes[index - 1] == UInt8(ascii: " ") || bytes[index - 1] == UInt8(ascii: "\t") { return }
            if flowDepth > 0, isFlowIndicator(b) { return }
            index += 1
        }
    }
}
