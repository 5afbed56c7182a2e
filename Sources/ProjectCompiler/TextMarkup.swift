import CompositionGraph
import LengthExpressions
import MediaTime

/// Reel's small markup for a text overlay (`style.markup: true`), read into plain text and
/// inline runs (`TextStyle.InlineRun`), which the renderer turns into Pango attributes: no
/// text ever reaches Pango's own markup parser.
///
/// `<b>`, `<i>`, `<u>`, `<s>`, `<span color="#…" font="…" size="…">` (each closed in order),
/// `<br>` (a line break), and the entities `&amp;`, `&lt;`, `&gt;`, `&quot;`, `&apos;`.
/// Anything else — another tag, a tag left open or closed out of order, an attribute other than
/// those, a `&` that starts no entity — is a problem at its character. Only the text the
/// project writes is read as markup: what a var brings in is text, drawn as it is.
enum TextMarkup {
    struct Problem: Error {
        var message: String
        /// Unicode scalars from the start of the written string.
        var offset: Int
        var hint: String?
    }

    /// What a `<span>` attribute means, or why it cannot be read (`value` starts at `offset`).
    typealias SpanAttribute = (_ name: String, _ value: String, _ offset: Int) throws(Problem) -> TextStyle.InlineStyle

    static let tagHint = "the tags are <b>, <i>, <u>, <s>, <span color=\"#…\" font=\"…\" size=\"…\"> and <br>; write &lt; for a literal <"
    static let entities: [String: Character] = ["amp": "&", "lt": "<", "gt": ">", "quot": "\"", "apos": "'"]

    /// The plain text and its runs, from the pieces of a written string (written text is
    /// markup, filled vars are text).
    static func parse(_ pieces: [LengthExpression.Piece], spanAttribute: SpanAttribute) throws(Problem) -> (text: String, runs: [TextStyle.InlineRun]) {
        var reader = Reader()
        for piece in pieces {
            switch piece {
            case .filled(let text, _, _): reader.text.append(text)
            case .written(let text, let start): try reader.read(Array(text.unicodeScalars), from: start, spanAttribute: spanAttribute)
            }
        }
        if let open = reader.open.last {
            throw Problem(message: "<\(open.name)> is not closed", offset: open.offset, hint: "close it with </\(open.name)>")
        }
        return (reader.text, reader.runs)
    }

    private struct Reader {
        var text = ""
        var runs: [TextStyle.InlineRun] = []
        /// The tags open, innermost last: the name, where it was written, its runs' indices.
        var open: [(name: String, offset: Int, runs: Range<Int>)] = []

        var byteCount: Int { text.utf8.count }

        /// `scalars`, the written text whose first scalar is at `start` of the string.
        mutating func read(_ scalars: [Unicode.Scalar], from start: Int, spanAttribute: SpanAttribute) throws(Problem) {
            var i = 0
            while i < scalars.count {
                switch scalars[i] {
                case "<":
                    guard let end = Self.tagEnd(scalars, from: i) else {
                        throw Problem(message: "'<' starts a tag that does not end with '>'", offset: start + i, hint: tagHint)
                    }
                    try tag(scalars, i + 1..<end, start: start, spanAttribute: spanAttribute)
                    i = end + 1
                case "&":
                    let name = scalars[(i + 1)...].prefix { $0 != ";" && $0 != " " && $0 != "<" && $0 != "&" }.prefix(8)
                    let after = i + 1 + name.count
                    guard after < scalars.count, scalars[after] == ";", let character = entities[String(String.UnicodeScalarView(name))] else {
                        throw Problem(message: "'&' starts no entity", offset: start + i,
                                      hint: "write &amp; for a literal & (the entities are &amp; &lt; &gt; &quot; &apos;)")
                    }
                    text.append(character)
                    i = after + 1
                default:
                    text.unicodeScalars.append(scalars[i])
                    i += 1
                }
            }
        }

        /// The index of the `>` that ends the tag opened at `from` (outside quoted values).
        static func tagEnd(_ scalars: [Unicode.Scalar], from: Int) -> Int? {
            var quote: Unicode.Scalar?
            for i in (from + 1)..<scalars.count {
                let c = scalars[i]
                if let q = quote { if c == q { quote = nil } } else if c == "\"" || c == "'" { quote = c } else if c == ">" { return i }
            }
            return nil
        }

        /// The tag whose text (between `<` and `>`) is `body`.
        mutating func tag(_ scalars: [Unicode.Scalar], _ body: Range<Int>, start: Int, spanAttribute: SpanAttribute) throws(Problem) {
            var i = body.lowerBound
            let closing = i < body.upperBound && scalars[i] == "/"
            if closing { i += 1 }
            let nameStart = i
            while i < body.upperBound, scalars[i].properties.isAlphabetic || scalars[i].properties.numericType != nil { i += 1 }
            let name = String(String.UnicodeScalarView(scalars[nameStart..<i]))
            let known = ["b", "i", "u", "s", "span", "br"]
            guard known.contains(name) else {
                let written = String(String.UnicodeScalarView(scalars[(body.lowerBound - 1)...body.upperBound]))
                throw Problem(message: name.isEmpty ? "'\(written)' is not a tag" : "unknown tag <\(name)>", offset: start + nameStart, hint: tagHint)
            }
            if closing {
                guard let last = open.last else {
                    throw Problem(message: "</\(name)> closes no tag", offset: start + body.lowerBound - 1, hint: "remove it, or open it before with <\(name)>")
                }
                guard last.name == name else {
                    throw Problem(message: "</\(name)> closes <\(last.name)>, which is still open", offset: start + body.lowerBound - 1,
                                  hint: "close the tags in the reverse order they were opened: </\(last.name)> first")
                }
                guard scalars[i..<body.upperBound].allSatisfy({ $0 == " " }) else {
                    throw Problem(message: "a closing tag has no attributes", offset: start + i, hint: "write </\(name)>")
                }
                open.removeLast()
                for r in last.runs { runs[r].end = byteCount }
                return
            }
            var attributes: [(name: String, value: String, offset: Int)] = []
            while true {
                while i < body.upperBound, scalars[i] == " " { i += 1 }
                if i >= body.upperBound { break }
                if name == "br", scalars[i] == "/", i + 1 == body.upperBound { break }
                let attributeStart = i
                while i < body.upperBound, scalars[i].properties.isAlphabetic || scalars[i] == "_" { i += 1 }
                let attribute = String(String.UnicodeScalarView(scalars[attributeStart..<i]))
                guard !attribute.isEmpty, i + 1 < body.upperBound, scalars[i] == "=", scalars[i + 1] == "\"" || scalars[i + 1] == "'" else {
                    throw Problem(message: "<\(name)> has an attribute that does not read as name=\"value\"", offset: start + attributeStart,
                                  hint: name == "span" ? "write <span color=\"#ffd400\">, with the value in quotes" : "<\(name)> takes no attributes")
                }
                let quote = scalars[i + 1]
                let valueStart = i + 2
                var valueEnd = valueStart
                while valueEnd < body.upperBound, scalars[valueEnd] != quote { valueEnd += 1 }
                guard valueEnd < body.upperBound else {
                    throw Problem(message: "the value of \(attribute) has no closing quote", offset: start + i + 1, hint: nil)
                }
                guard name == "span" else {
                    throw Problem(message: "<\(name)> takes no attributes", offset: start + attributeStart, hint: "write <\(name)>, or use <span> to set a colour, a font or a size")
                }
                guard ["color", "font", "size"].contains(attribute) else {
                    throw Problem(message: "<span> has no attribute '\(attribute)'", offset: start + attributeStart,
                                  hint: "a <span> takes color=\"#…\", font=\"family\" and size=\"length\"")
                }
                guard !attributes.contains(where: { $0.name == attribute }) else {
                    throw Problem(message: "<span> sets \(attribute) twice", offset: start + attributeStart, hint: nil)
                }
                attributes.append((attribute, String(String.UnicodeScalarView(scalars[valueStart..<valueEnd])), start + valueStart))
                i = valueEnd + 1
            }
            let first = runs.count
            switch name {
            case "br":
                text.append("\n")
                return
            case "b": runs.append(run(.bold))
            case "i": runs.append(run(.italic))
            case "u": runs.append(run(.underline))
            case "s": runs.append(run(.strikethrough))
            default:
                guard !attributes.isEmpty else {
                    throw Problem(message: "<span> sets nothing", offset: start + nameStart, hint: "give it color=\"#…\", font=\"family\" or size=\"length\"")
                }
                for attribute in attributes { runs.append(run(try spanAttribute(attribute.name, attribute.value, attribute.offset))) }
            }
            open.append((name, start + body.lowerBound - 1, first..<runs.count))
        }

        /// A run of `style` from here, its end set when its tag closes.
        func run(_ style: TextStyle.InlineStyle) -> TextStyle.InlineRun {
            TextStyle.InlineRun(start: byteCount, end: byteCount, style: style)
        }
    }
}

extension ProjectDecoder {
    /// The text at `c` read as markup: its plain text, its runs, and where each font a
    /// `<span>` names is first written; nil after reporting what is wrong, at its character.
    mutating func markedText(_ c: NodeCursor) -> (text: String, runs: [TextStyle.InlineRun], fonts: [(family: String, origin: Origin)])? {
        guard let value = c.string else { return nil }
        let (pieces, written) = strings.pieces(of: value, at: c.node.location)
        var fonts: [(family: String, origin: Origin)] = []
        let here = self
        func origin(_ offset: Int) -> Origin {
            Origin(location: here.strings.location(ofCharacter: offset, in: written, at: c.node.location), path: c.path)
        }
        do {
            let (text, runs) = try TextMarkup.parse(pieces) { (name, value, offset) throws(TextMarkup.Problem) -> TextStyle.InlineStyle in
                switch name {
                case "color":
                    guard let color = Color(parsing: value) else {
                        throw TextMarkup.Problem(message: "'\(value)' is not a colour", offset: offset, hint: "write \"#rrggbb\", \"#rrggbbaa\" or a name such as white")
                    }
                    return .color(color)
                case "font":
                    guard !value.isEmpty else { throw TextMarkup.Problem(message: "a <span> font names no family", offset: offset, hint: nil) }
                    if !fonts.contains(where: { $0.family == value }) { fonts.append((value, origin(offset))) }
                    return .font(value)
                default:
                    return .size(try here.markupSize(value, at: offset))
                }
            }
            return (text, runs, fonts)
        } catch {
            problems.report("the text's markup does not read: \(error.message)", at: origin(error.offset), hint: error.hint)
            return nil
        }
    }

    /// A `<span size="…">`: a length with no `%`, more than 0, in pixels.
    private func markupSize(_ value: String, at offset: Int) throws(TextMarkup.Problem) -> Double {
        let pixels: Rational?
        do {
            pixels = try resolved([.written(value, at: offset)], refusing: Self.noPercent("a font size"), plain: { ($0, .zero) })?.pixels
        } catch {
            throw TextMarkup.Problem(message: "'\(value)' is not a size: \(error.message)", offset: error.offset, hint: error.hint)
        }
        guard let pixels, LengthBound.positive.admits(pixels), pixels.doubleValue <= ProjectLimits.maxMagnitude else {
            throw TextMarkup.Problem(message: "a font size must be more than 0 (got \(value))", offset: offset, hint: "write a size such as 48 or \"6vmin\"")
        }
        return pixels.doubleValue
    }
}
