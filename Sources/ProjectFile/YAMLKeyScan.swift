/// A lexical pass over YAML text, run before Yams composes it, that rejects mapping keys
/// which are not scalars: an explicit `? ` key, a flow collection used as a key
/// (`[a]: b`) or an alias used as a key (`*a : b`).
///
/// Why: Yams checks duplicate keys by hashing every key node, and an alias key expands its
/// anchor in full, so `? *lol9 : x` after a "billion laughs" anchor chain hangs inside Yams.
/// Project-file keys are names, so refusing these keys costs nothing. The scan knows just
/// enough YAML to find where nodes start: quotes, comments, flow brackets and block scalars.
struct YAMLKeyScan {
    /// Borrowed for the duration of `scan(_:)` (no reference counting per byte).
    private let bytes: UnsafeBufferPointer<UInt8>
    private var index = 0
    /// Open flow collections, innermost last: `[` or `{`, and for `{` whether the next
    /// entry is a key (in a flow mapping every entry starts with a key, `{*a}` included).
    private var flowStack: [(kind: UInt8, expectsKey: Bool)] = []
    private var flowDepth: Int { flowStack.count }
    private var atFlowMappingKey: Bool { flowStack.last.map { $0.kind == UInt8(ascii: "{") && $0.expectsKey } ?? false }
    /// Set after `|` or `>`: lines indented more than this column belong to that block scalar.
    private var blockScalarParent: Int?
    /// Column of the latest block-context key or `-`/`?` entry on the current line.
    private var entryColumn = 0
    private var lineStart = 0
    private var nodeStarts = 0
    /// A problem found where returning it directly is awkward (closing a flow collection).
    private init(bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

    struct Result {
        /// The byte offset and message of the first non-scalar key, if any.
        var complexKey: (offset: Int, message: String)?
        /// How many nodes begin in the text (aliases count once): an upper bound on what Yams builds.
        var nodeStarts: Int
    }

    /// Scans `text`, stopping early once more than `maxNodes` nodes have begun.
    static func scan(_ text: [UInt8], maxNodes: Int) -> Result {
        text.withUnsafeBufferPointer { buffer in
            var scanner = YAMLKeyScan(bytes: buffer)
            while scanner.index < buffer.count, scanner.nodeStarts <= maxNodes {
                if let problem = scanner.scanLine() { return Result(complexKey: problem, nodeStarts: scanner.nodeStarts) }
            }
            return Result(complexKey: nil, nodeStarts: scanner.nodeStarts)
        }
    }

    private func byte(_ i: Int) -> UInt8 { i < bytes.count ? bytes[i] : UInt8(ascii: "\n") }
    private func isBreak(_ b: UInt8) -> Bool { b == UInt8(ascii: "\n") || b == UInt8(ascii: "\r") }
    private func isBlank(_ b: UInt8) -> Bool { b == UInt8(ascii: " ") || b == UInt8(ascii: "\t") || isBreak(b) }
    private func isFlowIndicator(_ b: UInt8) -> Bool {
        switch b {
        case UInt8(ascii: ","), UInt8(ascii: "["), UInt8(ascii: "]"), UInt8(ascii: "{"), UInt8(ascii: "}"): true
        default: false
        }
    }
    private var column: Int { index - lineStart }

    // The loops below use locals rather than `self` so that unoptimised (debug) builds
    // scan a 1 MiB file in well under a second too.

    private mutating func skipToLineEnd() {
        index = Self.lineEnd(in: bytes, from: index)
    }

    private static func lineEnd(in bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int {
        var i = start
        while i < bytes.count {
            let b = bytes[i]
            if b == 0x0A || b == 0x0D { break }
            i += 1
        }
        return i
    }

    private mutating func nextLine() {
        skipToLineEnd()
        if index < bytes.count { index += 1 }
        lineStart = index
    }

    /// Scans one physical line (in flow context a line is just whitespace between tokens).
    private mutating func scanLine() -> (offset: Int, message: String)? {
        // Skip blank lines in one go.
        var i = index, start = index
        while i < bytes.count {
            let b = bytes[i]
            if b == 0x0A || b == 0x0D { i += 1; start = i } else if b == 0x20 { i += 1 } else { break }
        }
        index = i
        lineStart = start
        let indent = column
        if index >= bytes.count { return nil }
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
            // A document marker, `---` or `...` at the start of a line (compared byte by byte:
            // this runs on every line that starts with `-`).
            if column == 0, flowDepth == 0, b == UInt8(ascii: "-") || b == UInt8(ascii: "."), byte(index + 1) == b, byte(index + 2) == b, isBlank(byte(index + 3)) {
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
        let next = byte(index + 1)
        switch b {
        case UInt8(ascii: "-") where flowDepth == 0 && isBlank(next):
            entryColumn = column
            index += 1
        case UInt8(ascii: "?") where isBlank(next) || (flowDepth > 0 && isFlowIndicator(next)):
            return (index, "explicit '?' mapping keys are not supported")
        case UInt8(ascii: ":") where isBlank(next) || (flowDepth > 0 && isFlowIndicator(next)):
            markFlowEntry(expectsKey: false)
            index += 1
        case UInt8(ascii: "["), UInt8(ascii: "{"):
            if atFlowMappingKey { return (index, "a list or mapping cannot be used as a mapping key") }
            nodeStarts += 1
            flowStack.append((b, b == UInt8(ascii: "{")))
            index += 1
        case UInt8(ascii: "]"), UInt8(ascii: "}"):
            closeFlow(&atNodeStart)
        case UInt8(ascii: ","):
            markFlowEntry(expectsKey: true)
            index += 1
        case UInt8(ascii: "*"):
            if atFlowMappingKey { return (index, "an alias cannot be used as a mapping key") }
            nodeStarts += 1
            let start = index
            index += 1
            // libyaml's anchor names are [0-9A-Za-z_-]: `*a:` is the alias `a` and a colon.
            while index < bytes.count, Self.isAnchorCharacter(bytes[index]) { index += 1 }
            if followedByValueIndicator() { return (start, "an alias cannot be used as a mapping key") }
            atNodeStart = false
        case UInt8(ascii: "&"), UInt8(ascii: "!"):
            while index < bytes.count, !isBlank(bytes[index]), !(flowDepth > 0 && isFlowIndicator(bytes[index])) { index += 1 }
        case UInt8(ascii: "|") where flowDepth == 0, UInt8(ascii: ">") where flowDepth == 0:
            nodeStarts += 1
            blockScalarParent = entryColumn
            skipToLineEnd()
        case UInt8(ascii: "\""), UInt8(ascii: "'"):
            nodeStarts += 1
            if flowDepth == 0 { entryColumn = column }
            skipQuoted(b)
            atNodeStart = false
        default:
            nodeStarts += 1
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
            markFlowEntry(expectsKey: false)
            index += 1
            atNodeStart = true
        case UInt8(ascii: ","):
            markFlowEntry(expectsKey: true)
            index += 1
            atNodeStart = true
        case UInt8(ascii: "]"), UInt8(ascii: "}"):
            closeFlow(&atNodeStart)
        default:
            // Not valid YAML (a node right after a node), but libyaml may still read a key
            // here (`[*a *a: x]`): scan it as the start of a node.
            atNodeStart = true
        }
    }

    /// After `,` a flow mapping expects a key again; after `:` its value.
    private mutating func markFlowEntry(expectsKey: Bool) {
        if !flowStack.isEmpty { flowStack[flowStack.count - 1].expectsKey = expectsKey }
    }

    private mutating func closeFlow(_ atNodeStart: inout Bool) {
        let start = index
        if !flowStack.isEmpty { flowStack.removeLast() }
        index += 1
        atNodeStart = false
        if followedByValueIndicator() { pendingProblem = (start, "a list or mapping cannot be used as a mapping key") }
    }

    /// Whether the next non-space character on the line is a `:`. Any colon counts, even one
    /// that libyaml would not take as a value indicator: refusing too much is harmless here,
    /// missing a key is not.
    private func followedByValueIndicator() -> Bool {
        var i = index
        while byte(i) == UInt8(ascii: " ") || byte(i) == UInt8(ascii: "\t") { i += 1 }
        return i < bytes.count && bytes[i] == UInt8(ascii: ":")
    }

    private static func isAnchorCharacter(_ b: UInt8) -> Bool {
        switch b {
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
             UInt8(ascii: "_"), UInt8(ascii: "-"):
            true
        default:
            false
        }
    }

    private mutating func skipQuoted(_ quote: UInt8) {
        var i = index + 1
        var lastLineStart = lineStart
        defer { index = i; lineStart = lastLineStart }
        while i < bytes.count {
            let b = bytes[i]
            if quote == UInt8(ascii: "\""), b == UInt8(ascii: "\\") { i += 2; continue }
            if b == quote {
                if quote == UInt8(ascii: "'"), i + 1 < bytes.count, bytes[i + 1] == quote { i += 2; continue }
                i += 1
                return
            }
            if b == 0x0A || b == 0x0D { lastLineStart = i + 1 }
            i += 1
        }
    }

    /// A plain scalar ends at `: `, ` #`, the line end, and in flow context at `,[]{}`.
    private mutating func skipPlain() {
        var i = index + 1
        let inFlow = flowDepth > 0
        while i < bytes.count {
            let b = bytes[i]
            if b == 0x0A || b == 0x0D { break }
            if b == UInt8(ascii: ":") {
                let next = i + 1 < bytes.count ? bytes[i + 1] : 0x0A
                if next == 0x20 || next == 0x09 || next == 0x0A || next == 0x0D || (inFlow && isFlowIndicator(next)) { break }
            } else if b == UInt8(ascii: "#") {
                if bytes[i - 1] == 0x20 || bytes[i - 1] == 0x09 { break }
            } else if inFlow, isFlowIndicator(b) {
                break
            }
            i += 1
        }
        index = i
    }
}
