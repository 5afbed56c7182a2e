import CompositionGraph

/// SVG path data (`M 10 10 L 90 10 Q 50 60 10 10 Z`) read into absolute move, line and cubic
/// commands: relative commands are made absolute, H/V become lines, quadratics, arcs and the
/// smooth forms become cubics.
enum SVGPathData {
    struct Failure: Error, Equatable {
        /// 1-based character position in the path text.
        var column: Int
        var message: String
    }

    static func parse(_ text: String) throws(Failure) -> MaskPath {
        var reader = Reader(chars: Array(text.unicodeScalars))
        var commands: [MaskPath.Command] = []
        var current = Point(x: 0, y: 0), start = current
        // The last control point of a cubic or quadratic, for S and T.
        var lastCubic: Point?, lastQuad: Point?
        var command: Character?
        reader.skipSeparators()
        guard !reader.atEnd else { throw Failure(column: 1, message: "the path is empty") }
        while true {
            reader.skipSeparators()
            if reader.atEnd { break }
            if let letter = reader.commandLetter() {
                command = letter
            } else if command == nil || command == "Z" || command == "z" {
                throw Failure(column: reader.column, message: "'\(reader.peek)' is not a path command (M, L, H, V, C, S, Q, T, A or Z)")
            }
            guard let c = command else { break }
            if commands.isEmpty && c != "M" && c != "m" {
                throw Failure(column: reader.column, message: "a path starts with M (move to), not \(c)")
            }
            let relative = c.isLowercase
            func point() throws(Failure) -> Point {
                let x = try reader.number(), y = try reader.number()
                return relative ? Point(x: current.x + x, y: current.y + y) : Point(x: x, y: y)
            }
            var cubic: Point?, quad: Point?
            switch c.uppercased() {
            case "M":
                current = try point()
                start = current
                commands.append(.move(current.x, current.y))
                command = relative ? "l" : "L" // further pairs are lines
            case "L":
                current = try point()
                commands.append(.line(current.x, current.y))
            case "H":
                let x = try reader.number()
                current.x = relative ? current.x + x : x
                commands.append(.line(current.x, current.y))
            case "V":
                let y = try reader.number()
                current.y = relative ? current.y + y : y
                commands.append(.line(current.x, current.y))
            case "C", "S":
                let c1 = c.uppercased() == "C" ? try point()
                    : lastCubic.map { current.reflecting($0) } ?? current
                let c2 = try point(), end = try point()
                commands.append(.cubic(c1.x, c1.y, c2.x, c2.y, end.x, end.y))
                cubic = c2
                current = end
            case "Q", "T":
                let q = c.uppercased() == "Q" ? try point()
                    : lastQuad.map { current.reflecting($0) } ?? current
                let end = try point()
                // The cubic with the same curve: control points 2/3 of the way to the quadratic's.
                commands.append(.cubic(current.x + 2 / 3 * (q.x - current.x), current.y + 2 / 3 * (q.y - current.y),
                                       end.x + 2 / 3 * (q.x - end.x), end.y + 2 / 3 * (q.y - end.y), end.x, end.y))
                quad = q
                current = end
            case "Z":
                commands.append(.close)
                current = start
            case "A":
                let rx = try reader.number(), ry = try reader.number(), rotation = try reader.number()
                let largeArc = try reader.flag(), sweep = try reader.flag(), end = try point()
                commands += SVGArc.cubics(from: (current.x, current.y), to: (end.x, end.y), radii: (rx, ry), rotation: rotation,
                                          largeArc: largeArc, sweep: sweep)
                current = end
            default:
                throw Failure(column: reader.column - 1, message: "'\(c)' is not a path command (M, L, H, V, C, S, Q, T, A or Z)")
            }
            lastCubic = cubic
            lastQuad = quad
        }
        return MaskPath(commands: commands)
    }

    private struct Point {
        var x: Double
        var y: Double

        /// `p` mirrored through this point (the implied control point of S and T).
        func reflecting(_ p: Point) -> Point { Point(x: 2 * x - p.x, y: 2 * y - p.y) }
    }

    private struct Reader {
        let chars: [Unicode.Scalar]
        var index = 0

        var atEnd: Bool { index >= chars.count }
        var column: Int { index + 1 }
        var peek: Character { atEnd ? " " : Character(chars[index]) }

        mutating func skipSeparators() {
            while !atEnd, chars[index] == " " || chars[index] == "," || chars[index] == "\t" || chars[index] == "\n" || chars[index] == "\r" {
                index += 1
            }
        }

        mutating func commandLetter() -> Character? {
            guard !atEnd, "MmLlHhVvCcSsQqTtZzAa".unicodeScalars.contains(chars[index]) else { return nil }
            index += 1
            return Character(chars[index - 1])
        }

        /// An arc's flag: 0 or 1, a single character (`a5 5 0 01 10 0` is valid SVG).
        mutating func flag() throws(Failure) -> Bool {
            skipSeparators()
            guard !atEnd, chars[index] == "0" || chars[index] == "1" else {
                throw Failure(column: column, message: atEnd ? "the path ends where an arc flag (0 or 1) was expected"
                                                             : "an arc flag (0 or 1) was expected, not '\(peek)'")
            }
            index += 1
            return chars[index - 1] == "1"
        }

        /// A number: optional sign, digits with an optional fraction, optional exponent.
        mutating func number() throws(Failure) -> Double {
            skipSeparators()
            let first = index
            func digits() { while !atEnd, ("0"..."9").contains(chars[index]) { index += 1 } }
            if !atEnd, chars[index] == "+" || chars[index] == "-" { index += 1 }
            digits()
            if !atEnd, chars[index] == "." { index += 1; digits() }
            if index > first, !atEnd, chars[index] == "e" || chars[index] == "E" {
                index += 1
                if !atEnd, chars[index] == "+" || chars[index] == "-" { index += 1 }
                digits()
            }
            let text = String(String.UnicodeScalarView(chars[first..<index]))
            guard let value = Double(text), value.isFinite else {
                index = first
                throw Failure(column: first + 1, message: atEnd ? "the path ends where a number was expected"
                                                               : "a number was expected, not '\(peek)'")
            }
            return value
        }
    }
}
