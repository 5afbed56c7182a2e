import Testing
@testable import MediaTime

@Suite struct RationalTests {
    @Test func reducesAndKeepsSignInNumerator() {
        let r = Rational(6, -4)
        #expect(r.numerator == -3 && r.denominator == 2)
    }

    @Test func addsUnrelatedScalesExactly() {
        let a = Rational(1, 44100), b = Rational(1001, 30000)
        #expect((a + b) - b == a)
    }

    @Test func roundsHalvesAwayFromZero() {
        #expect(Rational(5, 2).rounded == 3)
        #expect(Rational(-5, 2).rounded == -3)
        #expect(Rational(7, 3).rounded == 2)
        #expect(Rational(-7, 3).floor == -3)
        #expect(Rational(-7, 3).ceiling == -2)
    }

    @Test func parsesDecimalsAndFractionsExactly() {
        #expect(Rational(exactly: "29.97") == Rational(2997, 100))
        #expect(Rational(exactly: "30000/1001") == Rational(30000, 1001))
        #expect(Rational(exactly: "-0.5") == Rational(-1, 2))
        #expect(Rational(exactly: ".5") == Rational(1, 2))
        #expect(Rational(exactly: "1e3") == nil)
        #expect(Rational(exactly: "1/0") == nil)
        #expect(Rational(exactly: "") == nil)
        #expect(Rational(exactly: ".") == nil)
    }
}
