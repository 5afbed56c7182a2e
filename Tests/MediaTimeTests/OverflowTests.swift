import Testing
@testable import MediaTime

/// Text from project files and command lines never traps the exact arithmetic: values that do
/// not fit in 64-bit fractions are refused (found by the project fuzzer, FuzzTests).
@Suite struct OverflowTests {
    @Test func decimalsThatDoNotFitAreNotRationals() {
        // 15 integer and 15 fraction digits: the reduced fraction needs 10^30.
        #expect(Rational(exactly: "999999999999999.999999999999999") == nil)
        #expect(Rational(exactly: "999999999999999/0.000000000000001") == nil)
        #expect(Rational(exactly: "1/0") == nil)
        // What fits is still exact.
        #expect(Rational(exactly: "999999999999999.5") == Rational(1_999_999_999_999_999, 2))
        #expect(Rational(exactly: "0.000000000000001") == Rational(1, 1_000_000_000_000_000))
        #expect(Rational(exactly: "-30000/1001") == Rational(-30000, 1001))
    }

    @Test func checkedArithmeticReportsOverflow() {
        let big = Rational(Int64.max)
        #expect(big.adding(.one) == nil)
        #expect(big.multiplied(by: Rational(2)) == nil)
        #expect(Rational(1, 999_999_999_999_989).adding(Rational(1, 999_999_999_999_947)) == nil)
        #expect(Rational(1).divided(by: .zero) == nil)
        #expect(Rational(3, 2).adding(Rational(1, 2)) == Rational(2))
        #expect(Rational(3, 2).divided(by: Rational(3)) == Rational(1, 2))
        #expect(Rational(checkedNumerator: Int128(Int64.min), denominator: -1) == nil)
    }

    @Test(arguments: ["153722867280912930:00", "99999999999999:59:59.999", "9223372036854775807:00:00",
                      "9223372036854775807:59:59:00", "999999999999999.999999999999999h", "9223372036854775807f",
                      "999999999999999h", "99999999999999999999s"])
    func hugeTimesAreErrorsNotTraps(text: String) {
        // Two of them just fit in Int64 seconds and parse; the project decoder refuses them by its limit.
        let fitting: [String: Int64] = ["999999999999999h": 3_599_999_999_999_996_400, "153722867280912930:00": 9_223_372_036_854_775_800]
        let result = Result { () throws(TimeNotation.ParseError) in try TimeNotation.parse(text, fps: Rational(1, 1000)) }
        switch result {
        case .failure(let error): #expect(fitting[text] == nil && error.message.contains(text))
        case .success(let t): #expect(fitting[text].map { MediaTime(Rational($0)) } == t)
        }
    }
}
