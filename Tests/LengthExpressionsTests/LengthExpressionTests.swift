import LengthExpressions
import MediaTime
import Testing

/// Reading and exact evaluation of length expressions: units, precedence, parentheses, vars'
/// pieces, the dimension rules and where each error is.
@Suite struct LengthExpressionTests {
    func length(_ text: String) throws -> LengthSum {
        guard case .length(let sum) = try LengthExpression.evaluate(text) else {
            Issue.record("'\(text)' is a plain number")
            return LengthSum()
        }
        return sum
    }

    func failure(_ text: String, refusing refusal: LengthExpression.Refusal? = nil) -> LengthExpressionError? {
        do {
            _ = try LengthExpression.evaluate(text, refusing: refusal)
            return nil
        } catch {
            return error
        }
    }

    @Test func everyUnitIsReadExactly() throws {
        #expect(try length("48px") == LengthSum([.px: Rational(48)]))
        #expect(try length("12.5%") == LengthSum([.percent: Rational(25, 2)]))
        #expect(try length("100vw") == LengthSum([.vw: Rational(100)]))
        #expect(try length("0.5vh") == LengthSum([.vh: Rational(1, 2)]))
        #expect(try length("8vmin") == LengthSum([.vmin: Rational(8)]))
        #expect(try length(".25vmax") == LengthSum([.vmax: Rational(1, 4)]))
        #expect(try LengthExpression.evaluate("24") == .number(Rational(24)))
    }

    @Test func precedenceParenthesesAndSigns() throws {
        #expect(try length("100vw - 2 * 48px") == LengthSum([.vw: Rational(100), .px: Rational(-96)]))
        #expect(try length("(50% - 10px) / 2") == LengthSum([.percent: Rational(25), .px: Rational(-5)]))
        #expect(try length("-(8px + 2vw) * 3") == LengthSum([.px: Rational(-24), .vw: Rational(-6)]))
        #expect(try length("10px - -4px") == LengthSum([.px: Rational(14)]))
        #expect(try length("2 * 3 * 4px / 8") == LengthSum([.px: Rational(3)]))
        #expect(try LengthExpression.evaluate("(1 + 2) * 4 / 3") == .number(Rational(4)))
    }

    @Test func thirdsStayExactWhereDoublesRound() throws {
        // 100vw / 3 on a 1920 frame is exactly 640 px; the same in Double is 640.0000000000001.
        let third = try length("100vw / 3")
        #expect(third == LengthSum([.vw: Rational(100, 3)]))
        #expect(third.resolved(frameWidth: 1920, frameHeight: 1080)! == (Rational(640), Rational.zero))
        #expect(100.0 / 3 * 1920 / 100 != 640, "the Double route rounds, which is what this test guards against")
        // 1/3 + 1/3 + 1/3 of a pixel is one pixel exactly.
        #expect(try length("1px / 3 + 1px / 3 + 1px / 3") == LengthSum([.px: .one]))
        let sevenths = try length("100vh / 7")
        #expect(sevenths.resolved(frameWidth: 1080, frameHeight: 1920)!.pixels == Rational(1920, 7))
    }

    @Test func frameUnitsResolveForEachShape() throws {
        let sum = try length("10vw + 10vh + 10vmin + 10vmax + 5px + 50%")
        let wide = try #require(sum.resolved(frameWidth: 1920, frameHeight: 1080))
        #expect(wide.pixels == Rational(192 + 108 + 108 + 192 + 5) && wide.fraction == Rational(1, 2))
        let tall = try #require(sum.resolved(frameWidth: 1080, frameHeight: 1920))
        #expect(tall.pixels == Rational(108 + 192 + 108 + 192 + 5))
        let square = try #require(sum.resolved(frameWidth: 1080, frameHeight: 1080))
        #expect(square.pixels == Rational(4 * 108 + 5))
        #expect(try length("50vmin").resolved(frameWidth: 640, frameHeight: 360)!.pixels == Rational(180))
        #expect(try length("50vmax").resolved(frameWidth: 640, frameHeight: 360)!.pixels == Rational(320))
    }

    @Test func aVarsTextIsOneTerm() throws {
        // "{{ pad }} * 2" with pad = "8px + 1vw": (8px + 1vw) * 2, not 8px + 2vw.
        let pieces: [LengthExpression.Piece] = [.filled("8px + 1vw", name: "pad", span: 0..<9), .written(" * 2", at: 9)]
        #expect(try LengthExpression.evaluate(pieces) == .length(LengthSum([.px: Rational(16), .vw: Rational(2)])))
        let number: [LengthExpression.Piece] = [.filled("24", name: "pad", span: 0..<9), .written(" * 2", at: 9)]
        #expect(try LengthExpression.evaluate(number) == .number(Rational(48)))
    }

    @Test func errorsSayWhereAndWhat() {
        let cases: [(String, Int, String)] = [
            ("12pt", 2, "'pt' is not a unit of length"),
            ("100vw - 20", 8, "a plain number cannot be taken from a length"),
            ("20 + 1vw", 0, "a plain number cannot be added to a length"),
            ("10px * 2vw", 5, "a length times a length is not a length"),
            ("10px / 2px", 5, "a length can be divided only by a plain number"),
            ("10px / (2 - 2)", 7, "division by zero"),
            ("(50% - 10px / 2", 0, "this '(' is not closed"),
            ("10px +", 6, "the length ends where a number was expected"),
            ("10px 4px", 5, "'4px' where + - * / or the end was expected"),
            ("50 %", 3, "'%' stands apart from a number"),
            ("48 px", 3, "'px' stands apart from a number"),
            ("center", 0, "'center' is not a number or a unit of length"),
            ("10px # 2", 5, "'#' cannot be part of a length"),
            ("1.2.3px", 0, "'1.2.3' is not a number"),
            ("  ", 0, "the length is empty"),
            ("10px + * 2", 7, "'*' where a number was expected"),
        ]
        for (text, offset, message) in cases {
            let error = failure(text)
            #expect(error?.offset == offset && error?.message == message, "\(text): \(String(describing: error))")
            #expect(error?.hint.isEmpty == false)
        }
        #expect(failure("9999999999 * 9999999999 * 9999999999vw")?.message == "the value is too large to compute exactly")
    }

    @Test func aRefusedUnitIsAnErrorAtIt() {
        let refusal = LengthExpression.Refusal([.percent], reason: "a font size has no axis for % to be of", hint: "write 8vmin")
        let error = failure("2vmin + 10%", refusing: refusal)
        #expect(error?.offset == 10 && error?.message == "'%' cannot be used here: a font size has no axis for % to be of" && error?.hint == "write 8vmin")
        #expect(failure("2vmin + 10px", refusing: refusal) == nil)
    }

    @Test func anErrorInAVarsTextIsAtTheReference() {
        let pieces: [LengthExpression.Piece] = [.written("2 * ", at: 0), .filled("24pxx", name: "pad", span: 4..<13)]
        do {
            _ = try LengthExpression.evaluate(pieces)
            Issue.record("24pxx was read")
        } catch {
            #expect(error.offset == 4)
            #expect(error.message == "var 'pad' brings in '24pxx', and there 'pxx' is not a unit of length")
        }
        // The end of a text whose last piece is a var is the reference's end.
        let open: [LengthExpression.Piece] = [.filled("24px", name: "pad", span: 0..<9), .written(" +", at: 9)]
        #expect((try? LengthExpression.evaluate(open)) == nil)
        do { _ = try LengthExpression.evaluate(open) } catch { #expect(error.offset == 11) }
    }
}
