import Foundation
import ProjectFile

/// A project file to start from: an example or a fixture, as bytes.
struct FuzzSeed: Sendable {
    /// Path relative to the repository (for reports).
    var name: String
    /// The folder the seed lives in (its neighbours: fonts, SVGs).
    var folder: URL
    /// `yaml` or `json`.
    var fileExtension: String
    var bytes: [UInt8]
    /// The seed's tree when it loads (for tree mutations), else nil.
    var tree: Node?
    /// Whether the seed compiles as it is.
    var compiles = false
}

/// One generated input: bytes, the file extension they are written with, and var overrides.
struct FuzzCase {
    var bytes: [UInt8]
    var fileExtension: String
    var overrides: [(name: String, value: String)] = []
    /// What was done, for reports ("tree: number → 1e309 at output.fps; bytes: crlf").
    var recipe: [String] = []
}

/// Mutates seed project files: bytes, lines, scalar values, YAML features, and whole trees
/// (re-serialised as JSON or block YAML so that the mutated values reach the compiler).
/// Everything is drawn from `FuzzRandom`, so a case is a pure function of (seed, index).
struct ProjectMutator {
    let seeds: [FuzzSeed]

    func makeCase(_ random: inout FuzzRandom) -> FuzzCase {
        // Half the cases start from a project that compiles (an example or a valid fixture).
        let valid = seeds.filter(\.compiles)
        let seed = random.chance(50) && !valid.isEmpty ? random.pick(valid) : random.pick(seeds)
        var c = FuzzCase(bytes: seed.bytes, fileExtension: seed.fileExtension, recipe: [seed.name])
        // About half the cases mutate the tree first, so that values the schema accepts (huge
        // times, odd speeds, many clips) reach the decoder and the compiler.
        if let tree = seed.tree, random.chance(55) {
            var root = tree
            let rounds = random.chance(60) ? 1 : random.int(in: 2...4)
            for _ in 0..<rounds { mutateTree(&root, &random, recipe: &c.recipe) }
            if random.chance(50) {
                c.bytes = Array(TreeWriter.json(root).utf8)
                c.fileExtension = "json"
            } else {
                c.bytes = Array(TreeWriter.yaml(root).utf8)
                c.fileExtension = "yaml"
            }
            // Mostly leave such a case valid in syntax; sometimes add a textual mutation on top.
            if random.chance(25) { mutateText(&c, &random) }
        } else {
            let rounds = random.skewedLength(upTo: 6)
            for _ in 0..<rounds { mutateText(&c, &random) }
        }
        if random.chance(12) { addOverrides(&c, seed: seed, &random) }
        if random.chance(3) {
            c.fileExtension = random.pick(["reel", "txt", "YAML", "yml"]) // format sniffed from the content, or by another spelling
            c.recipe.append("as .\(c.fileExtension)")
        }
        return c
    }

    // MARK: Text and bytes

    private func mutateText(_ c: inout FuzzCase, _ random: inout FuzzRandom) {
        let choice = random.below(100)
        switch choice {
        case 0..<30: replaceScalar(&c, &random)
        case 30..<38: byteMutation(&c, &random)
        case 38..<44: lineMutation(&c, &random)
        case 44..<50: deepNesting(&c, &random)
        case 50..<58: yamlFeature(&c, &random)
        case 58..<63: lineBreaks(&c, &random)
        case 63..<67: byteOrderMark(&c, &random)
        case 67..<71: truncate(&c, &random)
        case 71..<75: splice(&c, &random)
        case 75..<81: renameKey(&c, &random)
        case 81..<86: repeatBlock(&c, &random)
        case 86..<90: longString(&c, &random)
        case 90..<95: jsonSyntax(&c, &random)
        default: insertInteresting(&c, &random)
        }
    }

    /// Where scalar values sit: after `: `, `- `, `[` or `, `, up to the end of the value.
    static func scalarSpans(_ b: [UInt8]) -> [Range<Int>] {
        var spans: [Range<Int>] = []
        var i = 0
        let n = b.count
        while i < n {
            let ch = b[i]
            var start: Int?
            if (ch == UInt8(ascii: ":") || ch == UInt8(ascii: "-") || ch == UInt8(ascii: ",")) && i + 1 < n && b[i + 1] == UInt8(ascii: " ") {
                start = i + 2
            } else if ch == UInt8(ascii: "[") {
                start = i + 1
            }
            if var s = start {
                while s < n && b[s] == UInt8(ascii: " ") { s += 1 }
                var e = s
                if s < n && (b[s] == UInt8(ascii: "[") || b[s] == UInt8(ascii: "{")) {
                    i = max(i + 1, s)
                    continue
                }
                if e < n && b[e] == UInt8(ascii: "\"") {
                    e += 1
                    while e < n && b[e] != UInt8(ascii: "\"") && b[e] != UInt8(ascii: "\n") {
                        if b[e] == UInt8(ascii: "\\") { e += 1 }
                        e += 1
                    }
                    e = min(n, e + 1)
                } else {
                    scan: while e < n {
                        switch b[e] {
                        case UInt8(ascii: "\n"), UInt8(ascii: ","), UInt8(ascii: "]"), UInt8(ascii: "}"), UInt8(ascii: "#"), UInt8(ascii: "\r"): break scan
                        default: e += 1
                        }
                    }
                    while e > s && b[e - 1] == UInt8(ascii: " ") { e -= 1 }
                }
                if e > s, e <= n { spans.append(s..<e) }
                i = max(i + 1, s)
            } else {
                i += 1
            }
        }
        return spans
    }

    private func replaceScalar(_ c: inout FuzzCase, _ random: inout FuzzRandom) {
        let spans = Self.scalarSpans(c.bytes)
        guard !spans.isEmpty else { return byteMutation(&c, &random) }
        let span = random.pick(spans)
        let value = Interesting.scalar(&random, json: c.fileExtension == "json")
        c.bytes.replaceSubrange(span, with: Array(value.utf8))
        c.recipe.append("scalar → \(Interesting.short(value))")
    }

    private func byteMutation(_ c: inout FuzzCase, _ random: inout FuzzRandom) {
        guard !c.bytes.isEmpty else { c.bytes = [random.pick(Interesting.bytes)]; return }
        let count = random.skewedLength(upTo: 16)
        for _ in 0..<count {
            let at = random.below(c.bytes.count)
            switch random.below(5) {
            case 0: c.bytes[at] ^= UInt8(1 << random.below(8))
            case 1: c.bytes[at] = random.pick(Interesting.bytes)
            case 2: c.bytes[at] = UInt8(truncatingIfNeeded: random.next())
            case 3: c.bytes.remove(at: at)
            default: c.bytes.insert(random.pick(Interesting.bytes), at: at)
            }
            if c.bytes.isEmpty { break }
        }
        c.recipe.append("bytes ×\(count)")
    }

    private func insertInteresting(_ c: inout FuzzCase, _ random: inout FuzzRandom) {
        let sequences: [[UInt8]] = [[0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80], [0xC0, 0xAF], [0xE2, 0x80, 0xAE], [0xCC, 0x81],
                                    [0xEF, 0xBB, 0xBF], [0xFF, 0xFE], [0], [0xE2, 0x80, 0xA8], [0xC2, 0x85], [0x1B, 0x5B, 0x32, 0x4A]]
        let at = random.below(c.bytes.count + 1)
        let sequence = random.pick(sequences)
        c.bytes.insert(contentsOf: sequence, at: at)
        c.recipe.append("insert \(sequence.map { String($0, radix: 16) }.joined(separator: " "))")
    }

    private static func lines(_ b: [UInt8]) -> [Range<Int>] {
        var result: [Range<Int>] = []
        var start = 0
        for (i, byte) in b.enumerated() where byte == UInt8(ascii: "\n") {
            result.append(start..<(i + 1))
            start = i + 1
        }
        if start < b.count { result.append(start..<b.count) }
        return result
    }

    private func lineMutation(_ c: inout FuzzCase, _ random: inout FuzzRandom) {
        let lines = Self.lines(c.bytes)
        guard lines.count > 1 else { return byteMutation(&c, &random) }
        let line = random.pick(lines)
        let text = Array(c.bytes[line])
        switch random.below(6) {
        case 0: // a duplicate key, or a duplicate list item
            c.bytes.insert(contentsOf: text, at: line.upperBound)
            c.recipe.append("duplicate line")
        case 1:
            c.bytes.removeSubrange(line)
            c.recipe.append("delete line")
        case 2:
            let other = random.pick(lines)
            let otherText = Array(c.bytes[other])
            if other.lowerBound > line.lowerBound {
                c.bytes.replaceSubrange(other, with: text)
                c.bytes.replaceSubrange(line, with: otherText)
            } else if other.lowerBound < line.lowerBound {
                c.bytes.replaceSubrange(line, with: otherText)
                c.bytes.replaceSubrange(other, with: text)
            }
            c.recipe.append("swap lines")
        case 3:
            let indent = random.pick([1, 2, 3, 4, 8])
            c.bytes.insert(contentsOf: [UInt8](repeating: UInt8(ascii: " "), count: indent), at: line.lowerBound)
            c.recipe.append("indent +\(indent)")
        case 4:
            var drop = 0
            while drop < 2 && line.lowerBound + drop < line.upperBound && c.bytes[line.lowerBound + drop] == UInt8(ascii: " ") { drop += 1 }
            c.bytes.removeSubrange(line.lowerBound..<(line.lowerBound + drop))
            c.recipe.append("dedent")
        default:
            c.bytes.insert(UInt8(ascii: "\t"), at: line.lowerBound)
            c.recipe.append("tab indent")
        }
    }

    private func deepNesting(_ c: inout FuzzCase, _ random: inout FuzzRandom) {
        let depth = random.pick([8, 30, 63, 64, 65, 100, 999, 1000, 1001, 5000, 50_000])
        let kind = random.below(4)
        let nested: String
        switch kind {
        case 0: nested = String(repeating: "[", count: depth) + "1" + String(repeating: "]", count: depth)
        case 1: nested = String(repeating: "{\"a\": ", count: depth) + "1" + String(repeating: "}", count: depth)
        case 2: nested = String(repeating: "[", count: depth) // never closed
        default:
            // Block nesting, one more indent per level (YAML only).
            nested = "\n" + (0..<min(depth, 400)).map { String(repeating: " ", count: ($0 + 1) * 2) + "k:" }.joined(separator: "\n") + " 1"
        }
        let spans = Self.scalarSpans(c.bytes)
        if let span = spans.isEmpty ? nil : random.pick(spans) {
            c.bytes.replaceSubrange(span, with: Array(nested.utf8))
        } else {
            c.bytes += Array(nested.utf8)
        }
        c.recipe.append("nesting \(kind) × \(depth)")
    }

    private func yamlFeature(_ c: inout FuzzCase, _ random: inout FuzzRandom) {
        let spans = Self.scalarSpans(c.bytes)
        guard spans.count >= 2 else { return byteMutation(&c, &random) }
        switch random.below(7) {
        case 0: // anchor one value, alias it elsewhere
            let a = random.pick(spans), b = random.pick(spans)
            guard a != b else { return }
            let alias = Array("*x".utf8), anchor = Array("&x ".utf8)
            if a.lowerBound < b.lowerBound {
                c.bytes.replaceSubrange(b, with: alias)
                c.bytes.insert(contentsOf: anchor, at: a.lowerBound)
            } else {
                c.bytes.insert(contentsOf: anchor, at: b.lowerBound)
                c.bytes.replaceSubrange(a.lowerBound + anchor.count ..< a.upperBound + anchor.count, with: alias)
            }
            c.recipe.append("anchor and alias")
        case 1: // an alias to nothing, or a forward alias
            c.bytes.replaceSubrange(random.pick(spans), with: Array(random.pick(["*nothing", "*x", "&x", "&x *x", "*", "&"]).utf8))
            c.recipe.append("dangling alias")
        case 2: // merge keys at a mapping's indentation
            let lines = Self.lines(c.bytes).filter { r in c.bytes[r].contains(UInt8(ascii: ":")) }
            guard let line = lines.isEmpty ? nil : random.pick(lines) else { return }
            let indent = c.bytes[line].prefix { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "-") }.map { $0 == UInt8(ascii: "-") ? UInt8(ascii: " ") : $0 }
            let merge = random.pick(["<<: *x", "<<: {media: 1, from: 2s}", "<<: [*x, *x]", "<<: 1", "<<: {<<: {a: 1}}"])
            c.bytes.insert(contentsOf: indent + Array((merge + "\n").utf8), at: line.upperBound)
            let target = random.pick(spans)
            if target.upperBound <= line.lowerBound { c.bytes.insert(contentsOf: Array("&x ".utf8), at: target.lowerBound) }
            c.recipe.append("merge key \(merge)")
        case 3: // a tag in front of a value
            let tag = random.pick(["!!str ", "!!int ", "!!float ", "!!bool ", "!!null ", "!!binary ", "!!map ", "!!seq ", "!!timestamp ",
                                   "!custom ", "!<tag:yaml.org,2002:str> ", "!<x> ", "! ", "!!", "!e!x ", "!!set ", "!!omap "])
            c.bytes.insert(contentsOf: Array(tag.utf8), at: random.pick(spans).lowerBound)
            c.recipe.append("tag \(tag)")
        case 4: // directives and documents
            let extra = random.pick(["%YAML 1.2\n---\n", "%YAML 1.1\n---\n", "%TAG ! tag:x,2000:\n---\n", "--- !!map\n", "---\n",
                                     "%YAML 9.9\n---\n", "%FOO bar\n---\n"])
            c.bytes.insert(contentsOf: Array(extra.utf8), at: 0)
            if random.chance(50) { c.bytes += Array(random.pick(["\n---\nreel: 1\n", "\n...\n", "\n--- 1\n", "\n...\n---\n", "\n... #x\n"]).utf8) }
            c.recipe.append("directives")
        case 5: // an alias bomb under an unknown key
            var bomb = "x0: &a0 [lol, lol, lol, lol, lol, lol, lol, lol, lol]\n"
            for i in 1...9 { bomb += "x\(i): &a\(i) [" + Array(repeating: "*a\(i - 1)", count: 9).joined(separator: ", ") + "]\n" }
            c.bytes += Array(("\n" + bomb).utf8)
            if random.chance(50) { c.bytes.replaceSubrange(random.pick(spans), with: Array("*a9".utf8)) }
            c.recipe.append("alias bomb")
        default: // complex keys and flow oddities
            let odd = random.pick(["? a\n: b", "? [a, b]\n: c", "[a]: b", "{a: b}: c", "a: {b, c}", "a: [b: c]", ": x", "? \n", "a: !!set {b, c}"])
            c.bytes.replaceSubrange(random.pick(spans), with: Array(odd.utf8))
            c.recipe.append("complex key")
        }
    }

    private func lineBreaks(_ c: inout FuzzCase, _ random: inout FuzzRandom) {
        switch random.below(4) {
        case 0:
            c.bytes = c.bytes.flatMap { $0 == UInt8(ascii: "\n") ? [UInt8(ascii: "\r"), UInt8(ascii: "\n")] : [$0] }
            c.recipe.append("CRLF")
        case 1:
            c.bytes = c.bytes.map { $0 == UInt8(ascii: "\n") ? UInt8(ascii: "\r") : $0 }
            c.recipe.append("CR only")
        case 2:
            let lines = Self.lines(c.bytes)
            guard let line = lines.isEmpty ? nil : random.pick(lines), line.upperBound > line.lowerBound,
                  c.bytes[line.upperBound - 1] == UInt8(ascii: "\n") else { return }
            c.bytes.insert(UInt8(ascii: "\r"), at: line.upperBound - 1)
            c.recipe.append("one CRLF")
        default:
            // Unicode line and paragraph separators and NEL, which YAML 1.1 treats as breaks.
            let separator = random.pick([[0xE2, 0x80, 0xA8], [0xE2, 0x80, 0xA9], [0xC2, 0x85], [0x0B], [0x0C]] as [[UInt8]])
            let lines = Self.lines(c.bytes)
            guard let line = lines.isEmpty ? nil : random.pick(lines), line.upperBound > line.lowerBound else { return }
            c.bytes.replaceSubrange((line.upperBound - 1)..<line.upperBound, with: separator)
            c.recipe.append("unicode break")
        }
    }

    private func byteOrderMark(_ c: inout FuzzCase, _ random: inout FuzzRandom) {
        let bom: [UInt8] = random.pick([[0xEF, 0xBB, 0xBF], [0xEF, 0xBB, 0xBF, 0xEF, 0xBB, 0xBF], [0xFF, 0xFE], [0xFE, 0xFF], [0x00, 0x00, 0xFE, 0xFF]])
        if random.chance(70) {
            c.bytes.insert(contentsOf: bom, at: 0)
        } else {
            c.bytes.insert(contentsOf: bom, at: random.below(c.bytes.count + 1))
        }
        c.recipe.append("BOM \(bom.count)")
    }

    private func truncate(_ c: inout FuzzCase, _ random: inout FuzzRandom) {
        guard !c.bytes.isEmpty else { return }
        let at = random.below(c.bytes.count)
        c.bytes.removeSubrange(at...)
        c.recipe.append("truncate at \(at)")
    }

    private func splice(_ c: inout FuzzCase, _ random: inout FuzzRandom) {
        let other = random.pick(seeds).bytes
        guard !other.isEmpty, !c.bytes.isEmpty else { return }
        let cut = random.below(c.bytes.count), from = random.below(other.count)
        c.bytes = Array(c.bytes[..<cut]) + Array(other[from...])
        c.recipe.append("splice")
    }

    private func renameKey(_ c: inout FuzzCase, _ random: inout FuzzRandom) {
        // A key is a run of key characters followed by ':' (YAML) or '":' (JSON).
        var keys: [Range<Int>] = []
        var i = 0
        let b = c.bytes
        while i < b.count {
            if b[i] == UInt8(ascii: ":"), i > 0 {
                var s = i - (b[i - 1] == UInt8(ascii: "\"") ? 1 : 0)
                let end = s
                while s > 0, b[s - 1] == UInt8(ascii: "_") || (b[s - 1] >= UInt8(ascii: "a") && b[s - 1] <= UInt8(ascii: "z")) { s -= 1 }
                if s < end { keys.append(s..<end) }
            }
            i += 1
        }
        guard !keys.isEmpty else { return byteMutation(&c, &random) }
        let key = random.pick(keys)
        let names = ["reel", "output", "media", "video", "audio", "overlays", "vars", "fonts", "clips", "media", "from", "to", "duration",
                     "at", "speed", "transition", "gap", "size", "fps", "path", "text", "style", "font", "position", "transform", "volume",
                     "loop", "fade_in", "fade_out", "keep_pitch", "color", "image", "svg", "rect", "ellipse", "watermark", "type", "default",
                     "minimum", "maximum", "max_length", "<<", "fromm", "", "a", String(repeating: "k", count: 300)]
        c.bytes.replaceSubrange(key, with: Array(random.pick(names).utf8))
        c.recipe.append("rename key")
    }

    /// Repeats a list item (a clip, an overlay, a keyframe) many times: big but valid projects.
    private func repeatBlock(_ c: inout FuzzCase, _ random: inout FuzzRandom) {
        let lines = Self.lines(c.bytes)
        let items = lines.indices.filter { i in
            let text = c.bytes[lines[i]].drop { $0 == UInt8(ascii: " ") }
            return text.first == UInt8(ascii: "-") || text.first == UInt8(ascii: "{")
        }
        guard !items.isEmpty else { return lineMutation(&c, &random) }
        let first = random.pick(items)
        let indent = c.bytes[lines[first]].prefix { $0 == UInt8(ascii: " ") }.count
        var last = first
        while last + 1 < lines.count {
            let next = c.bytes[lines[last + 1]]
            let nextIndent = next.prefix { $0 == UInt8(ascii: " ") }.count
            if nextIndent <= indent && next.count > nextIndent + 1 { break }
            last += 1
        }
        let block = Array(c.bytes[lines[first].lowerBound..<lines[last].upperBound])
        let times = min(random.pick([2, 10, 100, 300]), max(1, 900_000 / max(1, block.count)))
        var repeated: [UInt8] = []
        repeated.reserveCapacity(block.count * times)
        for _ in 0..<times { repeated += block }
        c.bytes.insert(contentsOf: repeated, at: lines[last].upperBound)
        c.recipe.append("repeat item ×\(times)")
    }

    private func longString(_ c: inout FuzzCase, _ random: inout FuzzRandom) {
        let spans = Self.scalarSpans(c.bytes)
        guard !spans.isEmpty else { return byteMutation(&c, &random) }
        let length = random.pick([300, 5000, 70_000, 600_000, 1_100_000])
        let unit = Array(random.pick(["x", "é", "\u{202E}", "e\u{0301}", "👩‍👩‍👧", "{{ a }}", "\\u0041", " ", "a b "]).utf8)
        var body: [UInt8] = [UInt8(ascii: "\"")]
        body.reserveCapacity(length + unit.count + 2)
        while body.count < length { body += unit }
        body.append(UInt8(ascii: "\""))
        c.bytes.replaceSubrange(random.pick(spans), with: body)
        c.recipe.append("long string \(length)")
    }

    private func jsonSyntax(_ c: inout FuzzCase, _ random: inout FuzzRandom) {
        let marks: [UInt8] = [UInt8(ascii: ","), UInt8(ascii: ":"), UInt8(ascii: "\""), UInt8(ascii: "{"), UInt8(ascii: "}"), UInt8(ascii: "["), UInt8(ascii: "]")]
        let places = c.bytes.indices.filter { marks.contains(c.bytes[$0]) }
        guard let at = places.isEmpty ? nil : random.pick(places) else { return byteMutation(&c, &random) }
        switch random.below(4) {
        case 0: c.bytes.remove(at: at)
        case 1: c.bytes.insert(c.bytes[at], at: at)
        case 2: c.bytes.insert(contentsOf: Array(", \"reel\": 1".utf8), at: at) // a duplicate key, maybe
        default: c.bytes.insert(contentsOf: Array(",]}".utf8), at: at)
        }
        c.recipe.append("json syntax")
    }

    // MARK: Overrides

    private func addOverrides(_ c: inout FuzzCase, seed: FuzzSeed, _ random: inout FuzzRandom) {
        var names = ["nope", "", "a b", "{{ x }}"]
        if case .object(let members)? = seed.tree?["vars"]?.value { names += members.map(\.key) + members.map(\.key) + members.map(\.key) }
        for _ in 0..<random.int(in: 1...3) {
            let value = random.chance(50) ? Interesting.overrideValue(&random) : Interesting.scalar(&random, json: false)
            c.overrides.append((random.pick(names), value))
        }
        c.recipe.append("--set ×\(c.overrides.count)")
    }

    // MARK: Trees

    private func mutateTree(_ root: inout Node, _ random: inout FuzzRandom, recipe: inout [String]) {
        var paths: [[PathStep]] = []
        collectPaths(root, [], into: &paths)
        guard !paths.isEmpty else { return }
        let leaves = paths.filter { isLeaf(root, $0[...]) }
        let path = random.chance(75) && !leaves.isEmpty ? random.pick(leaves) : random.pick(paths)
        let label = path.map(\.description).joined()
        modify(&root, path[...]) { node in
            switch random.below(10) {
            case 0..<3:
                node.value = Interesting.similar(to: node.value, &random)
                recipe.append("tree: \(label) = \(Interesting.short(node.value))")
            case 3..<5:
                node.value = Interesting.value(&random)
                recipe.append("tree: \(label) = \(Interesting.short(node.value))")
            case 5:
                if case .array(var items) = node.value, !items.isEmpty {
                    let item = random.pick(items)
                    let times = random.pick([1, 2, 50, 300])
                    items.insert(contentsOf: Array(repeating: item, count: times), at: random.below(items.count + 1))
                    node.value = .array(items)
                    recipe.append("tree: \(label) item ×\(times)")
                } else {
                    node.value = .array([node, node])
                    recipe.append("tree: \(label) wrapped in a list")
                }
            case 6:
                if case .object(var members) = node.value, !members.isEmpty {
                    members.remove(at: random.below(members.count))
                    node.value = .object(members)
                    recipe.append("tree: \(label) member removed")
                } else if case .array(var items) = node.value, !items.isEmpty {
                    items.remove(at: random.below(items.count))
                    node.value = .array(items)
                    recipe.append("tree: \(label) item removed")
                }
            case 7:
                if case .object(var members) = node.value, !members.isEmpty {
                    let member = random.pick(members)
                    members.append(member) // a duplicate key
                    node.value = .object(members)
                    recipe.append("tree: \(label) duplicate key \(member.key)")
                } else if case .array(var items) = node.value, items.count > 1 {
                    items.swapAt(random.below(items.count), random.below(items.count))
                    node.value = .array(items)
                    recipe.append("tree: \(label) items swapped")
                }
            case 8:
                if case .object(var members) = node.value {
                    let key = random.pick(Interesting.keys)
                    members.append(Node.Member(key: key, keyLocation: node.location, value: Node(Interesting.value(&random), at: node.location)))
                    node.value = .object(members)
                    recipe.append("tree: \(label).\(key) added")
                } else {
                    node.value = Interesting.value(&random)
                }
            default:
                // Numbers nudged: the same field, a little off (negative, zero, huge, precise).
                if case .number(let text) = node.value {
                    node.value = .number(random.pick(["-" + text, text + "0000000000", text + ".000000000000001", "0", "0.0", "1e-300", "1e300",
                                                      text + "e10", text + "999999999999999999"]))
                } else if case .string(let text) = node.value {
                    node.value = .string(random.pick([text + text, "-" + text, "\(text)\u{0}", text.uppercased(), String(text.reversed()),
                                                      "99999999" + text, text + "/0", "{{ \(text) }}", "  \(text)  "]))
                }
                recipe.append("tree: \(label) nudged")
            }
        }
    }

    enum PathStep: CustomStringConvertible {
        case key(Int, String)
        case index(Int)
        var description: String {
            switch self {
            case .key(_, let k): ".\(k)"
            case .index(let i): "[\(i)]"
            }
        }
    }

    private func collectPaths(_ node: Node, _ prefix: [PathStep], into paths: inout [[PathStep]]) {
        paths.append(prefix)
        switch node.value {
        case .array(let items):
            for (i, item) in items.enumerated() where paths.count < 5000 { collectPaths(item, prefix + [.index(i)], into: &paths) }
        case .object(let members):
            for (i, m) in members.enumerated() where paths.count < 5000 { collectPaths(m.value, prefix + [.key(i, m.key)], into: &paths) }
        default:
            break
        }
    }

    private func isLeaf(_ node: Node, _ path: ArraySlice<PathStep>) -> Bool {
        guard let step = path.first else {
            switch node.value {
            case .array, .object: return false
            default: return true
            }
        }
        switch (step, node.value) {
        case (.index(let i), .array(let items)) where i < items.count: return isLeaf(items[i], path.dropFirst())
        case (.key(let i, _), .object(let members)) where i < members.count: return isLeaf(members[i].value, path.dropFirst())
        default: return false
        }
    }

    private func modify(_ node: inout Node, _ path: ArraySlice<[PathStep].Element>, _ change: (inout Node) -> Void) {
        guard let step = path.first else { return change(&node) }
        switch (step, node.value) {
        case (.index(let i), .array(var items)) where i < items.count:
            modify(&items[i], path.dropFirst(), change)
            node.value = .array(items)
        case (.key(let i, _), .object(var members)) where i < members.count:
            modify(&members[i].value, path.dropFirst(), change)
            node.value = .object(members)
        default:
            change(&node)
        }
    }
}

/// Values and bytes that tend to break parsers, validators and arithmetic.
enum Interesting {
    static let bytes: [UInt8] = [0x00, 0xFF, 0xC3, 0x80, 0xED, 0xF4, 0x09, 0x0D, 0x0A, 0x22, 0x27, 0x5C, 0x3A, 0x2D, 0x7B, 0x7D, 0x5B, 0x5D,
                                 0x26, 0x2A, 0x21, 0x7C, 0x3E, 0x25, 0x40, 0x60, 0x23, 0x3F, 0x2C, 0x20, 0x7F, 0x1B]

    static let numbers = ["0", "-0", "-1", "1", "2", "0.5", "1e308", "1e309", "-1e309", "1e-320", "4.9e-324", "2.2250738585072014e-308",
                          "1.7976931348623157e308", "9223372036854775807", "9223372036854775808", "-9223372036854775808", "-9223372036854775809",
                          "18446744073709551616", "123456789012345678901234567890", "999999999999999.999999999999999",
                          "999999999999999", "0.000000000000001", "0.0000000000000001", "16384", "16385", "65536", "100000", "1000000",
                          "2147483647", "2147483648", "4294967296", "1e6", "1E+2", "1e-7", "-1e-7", "0.1", "3.14159265358979323846264338327950288",
                          "29.97", "30000", "0x1F", "0o17", "1_000", "+1", ".5", "5.", "00", "01", "-.5", "1.0e+400"]

    static let nonFinite = [".nan", ".NaN", ".inf", "-.inf", "+.inf", ".Inf", "NaN", "nan", "Infinity", "-Infinity", "inf", "\"NaN\"", "\"inf\"",
                            "\"Infinity\"", "\"-inf\""]

    static let times = ["99999999999h", "999999999999999h", "999999999999999.999999999999999h", "-1s", "0s", "0", "1e400s", "1e3s",
                        "00:00:00:99999", "9223372036854775807:00:00", "99999999999999:59:59.999", "9223372036854775807:59",
                        "153722867280912930:00", "9223372036854775807f", "922337203685477580f", "999999999999999.999999999999999s",
                        "999999999999999.999999999999999", "0.000000000000001s", "0.000000000000001", "1/0", "0/0", "30000/1001", "1/3",
                        "999999999999999/1", "1/999999999999999", "999999999999999/0.000000000000001", "2.5min", "10h", "36000s",
                        "00:00:00:00", "end", "-0", "12f", "1000000000f", "-999999999999999h", "1.5", "250ms", "59:59.999999999999999",
                        "00:00:59.999999999999999", "9999999999:00:00:00", "00:00:00:29", "1000000000000000000000s", "0.", ".0", "1e5",
                        "10:60", "-00:01", " 1s ", "1 s", "1ss", "s", "ms", "f", "0f", "-0f"]

    static let strings = ["", " ", "text", "DejaVu Sans", "#ff3366", "#zzz", "#ffffffffff", "#", "transparent", "red", "crossfade", "fade-through-black",
                          "wipe-left", "cover", "none", "50%", "-50%", "1e9%", "999999999999999999%", "0%", "100%",
                          "cubic-bezier(0.2, 0, 0.2, 1)", "cubic-bezier(2, 0, -1, 1)", "cubic-bezier(nan, 0, 0, 1)", "cubic-bezier(1e308, 1e308, 1e308, 1e308)",
                          "cubic-bezier(", "ease-in-out", "hold", "128k", "8M", "99999999999999999999M", "1e9k", "-1k", "0k",
                          "\u{202E}gnp.evil", "e\u{0301}\u{0302}\u{0303}\u{0304}\u{0305}\u{0306}\u{0307}\u{0308}", "\u{200D}\u{200D}", "👩‍👩‍👧‍👦", "\u{FEFF}",
                          "\u{0000}", "\u{FFFD}", "\u{10FFFF}", "\u{0085}", "\u{2028}", "a\nb", "a\r\nb", "\t", "ǅ", "İ", "ß", "ﬃ",
                          "{{ title }}", "{{ nope }}", "{{", "}}", "{{ {{ a }} }}", "{{ brand }}{{ brand }}", "{{ 1a }}", "{{}}", "{{ title }}{{",
                          "../../../../etc/passwd", "/dev/zero", "/dev/urandom", "/proc/self/mem", ".", "..", "media/", "/", "~", "A.mp4",
                          "../promo/media/A.mp4", "logo.png", "star.svg", "music.mp3", "unreadable.mp4", "A.mp4\u{0}.png", "zh-Hans", "x-invalid-☃",
                          "30000/1001", "1/0", "3/2", "0/5", "1.5/0.5", "yuv420p", "h264", "prores", "mkv", "webm", "end"]

    static let keys = ["reel", "output", "media", "video", "audio", "overlays", "vars", "fonts", "clips", "from", "to", "duration", "at", "speed",
                       "transition", "gap", "size", "fps", "text", "image", "svg", "rect", "ellipse", "loop", "mute", "fit", "crop", "transform",
                       "opacity", "volume", "fade_in", "fade_out", "name", "style", "color", "position", "anchor", "scale", "rotation", "watermark",
                       "ease", "value", "x-unknown", "", "<<"]

    /// A scalar as text for a YAML or JSON file.
    static func scalar(_ random: inout FuzzRandom, json: Bool) -> String {
        switch random.below(12) {
        case 0..<3: return random.pick(numbers)
        case 3: return random.pick(nonFinite)
        case 4..<6: return quoted(random.pick(times))
        case 6: return random.pick(times)
        case 7: return random.pick(["true", "false", "null", "~", "[]", "{}", "[1, 2]", "{a: 1}", "{\"a\": 1}", "[[[]]]", "\"\"", "''", "yes", "on", "Off"])
        case 8..<10: return quoted(random.pick(strings))
        case 10:
            // Escapes: lone surrogates in JSON (and in YAML double quotes), NUL, out-of-range code points.
            return random.pick(["\"\\u0000\"", "\"\\ud800\"", "\"\\udc00\"", "\"\\ud800\\u0041\"", "\"\\ud83d\\ude00\"", "\"\\uDFFF\\uD800\"",
                                "\"\\ud800\\ud800\"", "\"\\u00\"", "\"\\x00\"", "\"\\U0010FFFF\"", "\"\\U00110000\"", "\"\\UFFFFFFFF\"",
                                "\"\\N\\_\\L\\P\"", "\"\\e\\a\\v\\0\"", "\"\\/\"", "\"\\q\"", "\"\\\"", "\"\\u202e\"", "\"a\\u0301\\u0301\""])
        default:
            return random.pick(["'it''s'", "|\n  block\n", ">-\n  folded\n", "'unterminated", "\"unterminated", "\"a\"b\"", "'\\u0000'",
                                "!!str 1", "&a 1", "*a", "? x", "- x", "a: b", "#", "%", "@x", "`x`", "[1, ", "{a: ", "{a: 1", json ? "1" : "x"])
        }
    }

    /// A `--set` value: text that tries to escape into other fields or paths.
    static func overrideValue(_ random: inout FuzzRandom) -> String {
        random.pick(["{{ title }}", "{{ brand }}", "x{{ nope }}y", "{", "}}", "a\nmedia:\n  x: /etc/passwd", "\"\n- b", "../../etc/passwd",
                     "/etc/passwd", "/dev/zero", "..", ".", "", " ", "\u{0}", "a\u{0}b", "\r\n", "#ff3366", "#zzz", "1e309", "-1", "NaN",
                     "9223372036854775808", "true", "null", "[1, 2]", "{a: 1}", "999999999999999h", String(repeating: "x", count: 100_000),
                     "\u{202E}", "e\u{0301}", "\u{FEFF}x", "\\u0000"])
    }

    static let plausibleNumbers = ["0", "0.5", "1", "2", "3", "10", "100", "1000", "0.001", "1e3", "16384", "1e-9", "999999", "0.000001",
                                   "-1", "4.5", "29.97", "30000", "360", "-360", "0.999", "1.0000001", "7", "1920", "1080", "2", "4"]
    static let plausibleTimes = ["0", "0.5s", "1s", "2s", "10s", "12s", "11.999s", "12.001s", "1h", "10h", "250ms", "1f", "15f", "00:01.5",
                                 "00:00:01:00", "-1s", "-0.5s", "end", "0.333333333333333s", "1/3", "2.5min", "24h", "0.001ms", "3f",
                                 "00:00:11:29", "100000s", "0.000001s", "20s", "22s", "21.9s"]

    /// A value of the same kind as `value`, mostly one the schema accepts there.
    static func similar(to value: Node.Value, _ random: inout FuzzRandom) -> Node.Value {
        switch value {
        case .number: return .number(random.pick(plausibleNumbers))
        case .bool(let b): return .bool(!b)
        case .string(let s):
            if s.first?.isNumber == true || s == "end" || s.hasPrefix("-") { return .string(random.pick(plausibleTimes)) }
            return .string(random.pick(strings))
        default: return value
        }
    }

    /// A typed value for tree mutations.
    static func value(_ random: inout FuzzRandom) -> Node.Value {
        let here = SourceLocation(file: "fuzz", line: 1, column: 1)
        switch random.below(10) {
        case 0..<3: return .number(random.pick(numbers.filter { Double($0) != nil || Int($0) != nil }))
        case 3..<6: return .string(random.pick(times))
        case 6..<8: return .string(random.pick(strings))
        case 8: return random.pick([.null, .bool(true), .bool(false), .array([]), .object([])])
        default:
            let n = Node(.number(random.pick(["0", "1", "-1", "1e309", "0.5"])), at: here)
            return random.pick([.array([n, n]), .array([n]), .array([n, n, n]), .object([Node.Member(key: "at", keyLocation: here, value: n)]),
                                .array([Node(.object([Node.Member(key: "at", keyLocation: here, value: n), Node.Member(key: "value", keyLocation: here, value: n)]), at: here)])])
        }
    }

    static func quoted(_ text: String) -> String { jsonStringLiteral(text) }

    static func short(_ text: String) -> String {
        let flat = text.replacingOccurrences(of: "\n", with: "\\n")
        return flat.count > 40 ? String(flat.prefix(37)) + "…(\(flat.utf8.count) bytes)" : flat
    }

    static func short(_ value: Node.Value) -> String {
        switch value {
        case .null: "null"
        case .bool(let b): "\(b)"
        case .number(let n): short(n)
        case .string(let s): short(quoted(s))
        case .array(let a): "[\(a.count) items]"
        case .object(let m): "{\(m.count) members}"
        }
    }
}

/// Writes a `Node` tree back as JSON, or as block YAML with JSON-quoted strings.
enum TreeWriter {
    static func json(_ node: Node) -> String {
        var out = ""
        writeJSON(node, into: &out)
        return out + "\n"
    }

    private static func writeJSON(_ node: Node, into out: inout String) {
        switch node.value {
        case .null: out += "null"
        case .bool(let b): out += b ? "true" : "false"
        case .number(let n): out += n
        case .string(let s): out += Interesting.quoted(s)
        case .array(let items):
            out += "["
            for (i, item) in items.enumerated() {
                if i > 0 { out += ", " }
                writeJSON(item, into: &out)
            }
            out += "]"
        case .object(let members):
            out += "{"
            for (i, m) in members.enumerated() {
                if i > 0 { out += ",\n" }
                out += Interesting.quoted(m.key) + ": "
                writeJSON(m.value, into: &out)
            }
            out += "}"
        }
    }

    static func yaml(_ node: Node) -> String {
        var out = ""
        writeYAML(node, indent: 0, into: &out)
        return out.hasSuffix("\n") ? out : out + "\n"
    }

    private static func inline(_ node: Node) -> String? {
        switch node.value {
        case .null: return "null"
        case .bool(let b): return b ? "true" : "false"
        case .number(let n): return n
        case .string(let s): return Interesting.quoted(s)
        case .array(let items) where items.isEmpty: return "[]"
        case .object(let members) where members.isEmpty: return "{}"
        default: return nil
        }
    }

    private static func key(_ text: String) -> String {
        let plain = !text.isEmpty && text.unicodeScalars.allSatisfy { ($0.properties.isAlphabetic && $0.isASCII) || $0 == "_" }
        return plain ? text : Interesting.quoted(text)
    }

    private static func writeYAML(_ node: Node, indent: Int, into out: inout String) {
        let pad = String(repeating: " ", count: indent)
        switch node.value {
        case .array(let items) where !items.isEmpty:
            for item in items {
                if let text = inline(item) {
                    out += pad + "- " + text + "\n"
                } else {
                    out += pad + "-\n"
                    writeYAML(item, indent: indent + 2, into: &out)
                }
            }
        case .object(let members) where !members.isEmpty:
            for m in members {
                if let text = inline(m.value) {
                    out += pad + key(m.key) + ": " + text + "\n"
                } else {
                    out += pad + key(m.key) + ":\n"
                    writeYAML(m.value, indent: indent + 2, into: &out)
                }
            }
        default:
            out += pad + (inline(node) ?? "null") + "\n"
        }
    }
}
