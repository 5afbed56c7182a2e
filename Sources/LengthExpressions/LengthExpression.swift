import MediaTime

/// Reads and evaluates a length as a project writes it: a number with a unit (`48px`, `50%`,
/// `100vw`, `8vmin`), or a sum of them with `+ - * /` and parentheses
/// (`"100vw - 2 * 48px"`, `"(50% - 10px) / 2"`), exactly, in rationals.
///
/// Dimensions are checked as they are combined: a product needs a plain number on at least one
/// side, a divisor must be a plain number and not zero, and a plain number cannot be added to
/// a length (`100vw - 20` is an error: `20px` is meant or not). A plain number alone, or a sum
/// of plain numbers, evaluates to `.number`; what it means (pixels, a fraction) is the
/// reader's. Every error names the character it is at, as an offset into the written text.
///
/// The text may come in pieces (`Piece`): what the project writes, and the text a var brings
/// in (`"{{ pad }} * 2"`). A var's text is evaluated on its own and counts as one term in
/// parentheses, so `pad: "8px + 1vw"` makes `{{ pad }} * 2` 16 px + 2 vw; an error inside it is
/// at the `{{` of the reference.
///
///     let value = try LengthExpression.evaluate("100vw / 3")   // .length: 100/3 vw
public enum LengthExpression {
    /// A part of the written text.
    public enum Piece: Sendable, Equatable {
        /// Text as the project writes it, starting at offset `at` of the written text.
        case written(String, at: Int)
        /// The text var `name` brings in for the reference that spans `span` of the written text.
        case filled(String, name: String, span: Range<Int>)
    }

    /// Units the place that reads a length does not take, and why (a font size has no axis
    /// for `%` to be of).
    public struct Refusal: Sendable {
        public var units: Set<LengthUnit>
        public var reason: String
        public var hint: String

        public init(_ units: Set<LengthUnit>, reason: String, hint: String) {
            self.units = units
            self.reason = reason
            self.hint = hint
        }
    }

    /// What a length is, for hints.
    public static let form = "a number with a unit (\(LengthUnit.written)), or a sum of them with + - * / and parentheses, such as \"100vw - 2 * 48px\""

    public static func evaluate(_ text: String, refusing refusal: Refusal? = nil) throws(LengthExpressionError) -> Quantity {
        try evaluate([.written(text, at: 0)], refusing: refusal)
    }

    public static func evaluate(_ pieces: [Piece], refusing refusal: Refusal? = nil) throws(LengthExpressionError) -> Quantity {
        var parser = Parser(lexemes: try Lexer.lexemes(of: pieces, refusing: refusal))
        return try parser.whole()
    }
}

/// Where and why a length expression cannot be evaluated.
public struct LengthExpressionError: Error, Sendable, Equatable {
    /// The offending character's offset in the written text, in Unicode scalars from 0 (the
    /// text's length: its end).
    public var offset: Int
    public var message: String
    public var hint: String

    public init(offset: Int, message: String, hint: String = LengthExpression.form) {
        self.offset = offset
        self.message = message
        self.hint = hint
    }
}

/// One token of the written text with where it starts and how it is written.
struct Lexeme {
    enum Token: Equatable {
        case number(Rational, LengthUnit?)
        case plus, minus, times, divide, open, close
        /// A var's text, already evaluated.
        case group(Quantity)
        case end
    }

    var token: Token
    var offset: Int
    var text: String
}

enum Lexer {
    static func lexemes(of pieces: [LengthExpression.Piece], refusing refusal: LengthExpression.Refusal?) throws(LengthExpressionError) -> [Lexeme] {
        var lexemes: [Lexeme] = []
        var end = 0
        for piece in pieces {
            switch piece {
            case .written(let text, let at):
                lexemes += try scan(Array(text.unicodeScalars), from: at, refusing: refusal)
                end = at + text.unicodeScalars.count
            case .filled(let text, let name, let span):
                do {
                    let value = try LengthExpression.evaluate(text, refusing: refusal)
                    lexemes.append(Lexeme(token: .group(value), offset: span.lowerBound, text: "{{ \(name) }}"))
                } catch {
                    throw LengthExpressionError(offset: span.lowerBound, message: "var '\(name)' brings in '\(text)', and there \(error.message)", hint: error.hint)
                }
                end = span.upperBound
            }
        }
        if lexemes.isEmpty { throw LengthExpressionError(offset: 0, message: "the length is empty") }
        return lexemes + [Lexeme(token: .end, offset: end, text: "")]
    }

    private static func scan(_ s: [Unicode.Scalar], from base: Int, refusing refusal: LengthExpression.Refusal?) throws(LengthExpressionError) -> [Lexeme] {
        var found: [Lexeme] = []
        var i = 0
        func isDigit(_ c: Unicode.Scalar) -> Bool { ("0"..."9").contains(c) }
        func isLetter(_ c: Unicode.Scalar) -> Bool { ("a"..."z").contains(c) || ("A"..."Z").contains(c) }
        func run(while accept: (Unicode.Scalar) -> Bool) -> String {
            var text = ""
            while i < s.count, accept(s[i]) { text.unicodeScalars.append(s[i]); i += 1 }
            return text
        }
        while i < s.count {
            let start = i, c = s[i]
            let symbols: [Unicode.Scalar: Lexeme.Token] = ["+": .plus, "-": .minus, "*": .times, "/": .divide, "(": .open, ")": .close]
            if c == " " || c == "\t" {
                i += 1
            } else if let token = symbols[c] {
                i += 1
                found.append(Lexeme(token: token, offset: base + start, text: String(c)))
            } else if isDigit(c) || c == "." {
                let digits = run { isDigit($0) || $0 == "." }
                guard let value = Rational(exactly: digits) else {
                    throw LengthExpressionError(offset: base + start, message: "'\(digits)' is not a number",
                                                hint: "write digits with at most one decimal point and 15 digits on either side, such as 48 or 12.5")
                }
                var unit: LengthUnit?
                let unitStart = i
                if i < s.count, s[i] == "%" {
                    i += 1
                    unit = .percent
                } else if i < s.count, isLetter(s[i]) {
                    let name = run(while: isLetter)
                    guard let known = LengthUnit(rawValue: name) else {
                        throw LengthExpressionError(offset: base + unitStart, message: "'\(name)' is not a unit of length",
                                                    hint: "the units are \(LengthUnit.written): \(digits)px, \(digits)vmin")
                    }
                    unit = known
                }
                if let unit, let refusal, refusal.units.contains(unit) {
                    throw LengthExpressionError(offset: base + unitStart, message: "'\(unit.rawValue)' cannot be used here: \(refusal.reason)", hint: refusal.hint)
                }
                found.append(Lexeme(token: .number(value, unit), offset: base + start, text: digits + (unit?.rawValue ?? "")))
            } else if isLetter(c) || c == "%" {
                let word = c == "%" ? "%" : run(while: isLetter)
                let isUnit = LengthUnit(rawValue: word) != nil
                throw LengthExpressionError(offset: base + start,
                                            message: isUnit ? "'\(word)' stands apart from a number" : "'\(word)' is not a number or a unit of length",
                                            hint: isUnit ? "a unit goes right after its number, with no space between: 48px, 50%" : LengthExpression.form)
            } else {
                throw LengthExpressionError(offset: base + start, message: "'\(Character(c))' cannot be part of a length")
            }
        }
        return found
    }
}

/// Recursive descent over the lexemes: sums of products of signed terms.
struct Parser {
    /// A value and where its text starts (for errors about it).
    struct Operand {
        var value: Quantity
        var offset: Int
    }

    let lexemes: [Lexeme]
    var index = 0

    init(lexemes: [Lexeme]) { self.lexemes = lexemes }

    var current: Lexeme { lexemes[index] }

    mutating func whole() throws(LengthExpressionError) -> Quantity {
        let value = try sum()
        guard current.token == .end else {
            throw LengthExpressionError(offset: current.offset, message: "'\(current.text)' where + - * / or the end was expected")
        }
        return value.value
    }

    private mutating func sum() throws(LengthExpressionError) -> Operand {
        try chain(of: [.plus, .minus], { p throws(LengthExpressionError) in try p.product() }) { a, b, op throws(LengthExpressionError) in
            try Self.added(a, b, subtracting: op.token == .minus, at: op.offset)
        }
    }

    private mutating func product() throws(LengthExpressionError) -> Operand {
        try chain(of: [.times, .divide], { p throws(LengthExpressionError) in try p.signed() }) { a, b, op throws(LengthExpressionError) in
            try Self.multiplied(a, b, dividing: op.token == .divide, at: op.offset)
        }
    }

    /// Operands read by `next` joined left to right by the operators `ops`, each pair by `join`.
    private mutating func chain(of ops: [Lexeme.Token], _ next: (inout Parser) throws(LengthExpressionError) -> Operand,
                                _ join: (Operand, Operand, Lexeme) throws(LengthExpressionError) -> Quantity) throws(LengthExpressionError) -> Operand {
        var left = try next(&self)
        while ops.contains(current.token) {
            let op = current
            index += 1
            let right = try next(&self)
            left = Operand(value: try join(left, right, op), offset: left.offset)
        }
        return left
    }

    private mutating func signed() throws(LengthExpressionError) -> Operand {
        let start = current
        switch start.token {
        case .minus:
            index += 1
            let value = try signed()
            return Operand(value: try Self.multiplied(Operand(value: .number(Rational(-1)), offset: start.offset), value, dividing: false, at: start.offset),
                           offset: start.offset)
        case .plus:
            index += 1
            return Operand(value: try signed().value, offset: start.offset)
        default:
            return try term()
        }
    }

    private mutating func term() throws(LengthExpressionError) -> Operand {
        let start = current
        index += 1
        switch start.token {
        case .number(let value, let unit):
            return Operand(value: unit.map { .length(LengthSum([$0: value])) } ?? .number(value), offset: start.offset)
        case .group(let value):
            return Operand(value: value, offset: start.offset)
        case .open:
            let inner = try sum()
            guard current.token == .close else {
                throw LengthExpressionError(offset: start.offset, message: "this '(' is not closed", hint: "close it with ')': (50% - 10px) / 2")
            }
            index += 1
            return Operand(value: inner.value, offset: start.offset)
        case .end:
            index -= 1
            throw LengthExpressionError(offset: start.offset, message: "the length ends where a number was expected")
        default:
            index -= 1
            throw LengthExpressionError(offset: start.offset, message: "'\(start.text)' where a number was expected")
        }
    }

    private static func tooLarge(_ offset: Int) -> LengthExpressionError {
        LengthExpressionError(offset: offset, message: "the value is too large to compute exactly", hint: "lengths are far smaller: was a digit added?")
    }

    static func added(_ a: Operand, _ b: Operand, subtracting: Bool, at offset: Int) throws(LengthExpressionError) -> Quantity {
        func op(_ x: Rational, _ y: Rational) -> Rational? { subtracting ? x.subtracting(y) : x.adding(y) }
        switch (a.value, b.value) {
        case (.number(let x), .number(let y)):
            guard let sum = op(x, y) else { throw tooLarge(offset) }
            return .number(sum)
        case (.length(let x), .length(let y)):
            guard let sum = x.combined(with: y, op) else { throw tooLarge(offset) }
            return .length(sum)
        case (.number, .length), (.length, .number):
            let plain = if case .number = a.value { a } else { b }
            throw LengthExpressionError(offset: plain.offset, message: "a plain number cannot be \(subtracting ? "taken from" : "added to") a length",
                                        hint: "give the number its unit, such as 20px: a number means pixels only when it is the whole length")
        }
    }

    static func multiplied(_ a: Operand, _ b: Operand, dividing: Bool, at offset: Int) throws(LengthExpressionError) -> Quantity {
        if dividing {
            if case .length = b.value {
                throw LengthExpressionError(offset: offset, message: "a length can be divided only by a plain number",
                                            hint: "divide by a number: (100vw - 48px) / 3")
            }
            if case .number(let y) = b.value, y.isZero {
                throw LengthExpressionError(offset: b.offset, message: "division by zero", hint: "divide by a number other than 0: (100vw - 48px) / 3")
            }
        }
        switch (a.value, b.value) {
        case (.number(let x), .number(let y)):
            guard let product = dividing ? x.divided(by: y) : x.multiplied(by: y) else { throw tooLarge(offset) }
            return .number(product)
        case (.length(let x), .number(let y)):
            guard let product = x.scaled(by: y, dividing: dividing) else { throw tooLarge(offset) }
            return .length(product)
        case (.number(let x), .length(let y)):
            guard let product = y.scaled(by: x) else { throw tooLarge(offset) }
            return .length(product)
        case (.length, .length):
            throw LengthExpressionError(offset: offset, message: "a length times a length is not a length",
                                        hint: "one side of * must be a plain number: 2 * 48px, 8vmin * 1.5")
        }
    }
}
