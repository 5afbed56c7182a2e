import LengthExpressions
import MediaTime
import ProjectFile

/// Lengths as a project writes them: a number of pixels, or a length expression
/// (`LengthExpression`: `"50%"`, `"8vmin"`, `"100vw - 2 * 48px"`, `"{{ pad }} * 2"`), evaluated
/// exactly for this rendition's frame. What `%` is of depends on the place: the frame along
/// the length's axis (`length`), the source (`sourceLength`, a crop edge), the layer's box
/// (`boxFraction`, an anchor); a length with no axis (`pixels`: a font size, a radius) takes
/// no `%`. An expression that does not read is reported at its character.
extension ProjectDecoder {
    /// A length whose `%` the compiler resolves against the frame along its axis.
    mutating func length(_ c: NodeCursor) -> Length? {
        evaluated(c, refusing: nil).map { Length(pixels: $0.pixels, fraction: $0.fraction) }
    }

    /// A length with no axis, in pixels: `what` names it for the message on `%`
    /// ("a font size"). With `positive`, it must be more than 0; with `nonNegative`, at least 0.
    /// Nil when `c` is absent or unusable.
    mutating func pixels(_ c: NodeCursor?, _ what: String, _ bound: LengthBound = .any) -> Double? {
        guard let c else { return nil }
        guard let value = evaluated(c, refusing: Self.noPercent(what))?.pixels else { return nil }
        guard bound.admits(value) else {
            problems.report("\(what) must be \(bound.rule) (got \(c.scalarText ?? value.description), \(value.doubleValue) px here)", at: c.origin)
            return nil
        }
        return value.doubleValue
    }

    /// The refusal of `%` where a length has no axis (`what`: "a font size").
    static func noPercent(_ what: String) -> LengthExpression.Refusal {
        LengthExpression.Refusal([.percent], reason: "\(what) has no axis for % to be of",
                                 hint: "use vmin, vw or vh for \(what) that follows the frame: 4vmin")
    }

    /// A crop edge: pixels of the source or `%` of its size (the frame's units measure another picture).
    mutating func sourceLength(_ c: NodeCursor) -> Length? {
        let refusal = LengthExpression.Refusal([.vw, .vh, .vmin, .vmax], reason: "a crop edge is in the source's pixels, and the frame's units measure the output",
                                               hint: "write pixels of the source or a percentage of its size: 10%")
        return evaluated(c, refusing: refusal).map { Length(pixels: $0.pixels, fraction: $0.fraction) }
    }

    /// A point of a layer's box as a fraction of it: `0.5`, `"50%"`, `"100% / 3"`.
    mutating func boxFraction(_ c: NodeCursor) -> Length? {
        if let r = c.rational { return .fraction(r) }
        let refusal = LengthExpression.Refusal([.px, .vw, .vh, .vmin, .vmax], reason: "an anchor is a point of the layer's own box",
                                               hint: "write a fraction of the box (0.5) or a percentage of it (\"50%\")")
        guard let value = evaluated(c, refusing: refusal, plainNumbers: .fraction) else { return nil }
        return .fraction(value.fraction)
    }

    /// The exact pixels and fraction a number or an expression at `c` stands for; nil after
    /// reporting why it does not.
    private mutating func evaluated(_ c: NodeCursor, refusing refusal: LengthExpression.Refusal?,
                                    plainNumbers: PlainNumber = .pixels) -> (pixels: Rational, fraction: Rational)? {
        func plain(_ n: Rational) -> (pixels: Rational, fraction: Rational) { plainNumbers == .pixels ? (n, .zero) : (.zero, n) }
        if let r = c.rational { return plain(r) }
        guard let value = c.string else { return nil }
        let (pieces, written) = strings.pieces(of: value, at: c.node.location)
        let result: (pixels: Rational, fraction: Rational)?
        do {
            result = try resolved(pieces, refusing: refusal, plain: plain)
        } catch {
            let place = strings.location(ofCharacter: error.offset, in: written, at: c.node.location)
            problems.report("'\(written)' is not a length: \(error.message)", at: Origin(location: place, path: c.path), hint: error.hint)
            return nil
        }
        guard let result, result.pixels.magnitude.doubleValue <= ProjectLimits.maxMagnitude,
              result.fraction.magnitude.doubleValue * 100 <= ProjectLimits.maxPercent else {
            problems.report("'\(written)' is beyond what Reel draws: lengths lie within ±1000000 px and ±10000%", at: c.origin)
            return nil
        }
        return result
    }

    /// The exact pixels and fraction of an expression read from `pieces` in this rendition's frame.
    func resolved(_ pieces: [LengthExpression.Piece], refusing refusal: LengthExpression.Refusal?,
                  plain: (Rational) -> (pixels: Rational, fraction: Rational)) throws(LengthExpressionError) -> (pixels: Rational, fraction: Rational)? {
        switch try LengthExpression.evaluate(pieces, refusing: refusal) {
        case .number(let n): plain(n)
        case .length(let sum): sum.resolved(frameWidth: frameSize.width, frameHeight: frameSize.height)
        }
    }

    /// What a plain number means where a length is read.
    private enum PlainNumber { case pixels, fraction }
}

/// The values a length may take where it is read.
enum LengthBound {
    case any, nonNegative, positive

    func admits(_ value: Rational) -> Bool {
        switch self {
        case .any: true
        case .nonNegative: !value.isNegative
        case .positive: !value.isNegative && !value.isZero
        }
    }

    var rule: String {
        switch self {
        case .any: "a length"
        case .nonNegative: "at least 0"
        case .positive: "more than 0"
        }
    }
}

/// How the strings of a document are written, so an error inside one points at its character:
/// the file's text, and each string vars were filled into as it is written, with the text
/// each var brought in (which a length expression takes as one term).
struct WrittenStrings {
    struct Template {
        var text: String
        /// Each reference that was filled in: where it is in `text` (Unicode scalars), the var, its text.
        var filled: [(span: Range<Int>, name: String, text: String)]
    }

    var source: SourceText?
    var templates: [SourceLocation: Template] = [:]

    init(source: SourceText? = nil) { self.source = source }

    /// The strings of `document` (as written, before substitution) that hold references, each
    /// with what `vars` fills in.
    init(source: SourceText, document: Node, vars: VarsSubstitution) {
        self.source = source
        func visit(_ node: Node, top: Bool) {
            switch node.value {
            case .string(let text) where text.contains("{{"):
                let references = vars.filledReferences(in: text)
                guard references.count == VarsSubstitution.references(in: text).count else { return }
                let filled = references.map { reference, value in
                    let scalars = text.unicodeScalars
                    let start = scalars.distance(from: scalars.startIndex, to: reference.range.lowerBound)
                    return (span: start..<start + scalars[reference.range].count, name: reference.name ?? "", text: value)
                }
                templates[node.location] = Template(text: text, filled: filled)
            case .array(let items): items.forEach { visit($0, top: false) }
            case .object(let members): for m in members where !(top && m.key == "vars") { visit(m.value, top: false) }
            default: break
            }
        }
        visit(document, top: true)
    }

    /// The pieces the string `value` at `location` is read from, and its text as written.
    func pieces(of value: String, at location: SourceLocation) -> (pieces: [LengthExpression.Piece], written: String) {
        guard let template = templates[location], !template.filled.isEmpty else { return ([.written(value, at: 0)], value) }
        var pieces: [LengthExpression.Piece] = []
        let scalars = Array(template.text.unicodeScalars)
        var cursor = 0
        func written(upTo end: Int) {
            if end > cursor { pieces.append(.written(String(String.UnicodeScalarView(scalars[cursor..<end])), at: cursor)) }
        }
        for reference in template.filled {
            written(upTo: reference.span.lowerBound)
            pieces.append(.filled(reference.text, name: reference.name, span: reference.span))
            cursor = reference.span.upperBound
        }
        written(upTo: scalars.count)
        return (pieces, template.text)
    }

    /// Where character `offset` of `written`, the string whose scalar starts at `location`, is in the file.
    func location(ofCharacter offset: Int, in written: String, at location: SourceLocation) -> SourceLocation {
        guard let source else { return location }
        return ScalarColumns.location(ofCharacter: offset, in: written, at: location, source: source)
    }
}
