/// How a frame rate is written (`output.fps`, an image sequence's `fps`, `--fps`): a number or a
/// fraction (`24`, `29.97`, `"30000/1001"`), where 23.976, 29.97, 47.952, 59.94 and 119.88 mean
/// the NTSC rates n × 1000/1001 they stand for.
public enum FrameRateNotation {
    /// The NTSC rates, by the decimal they are written as.
    private static let ntsc: [Rational: Rational] = [
        Rational(23976, 1000): Rational(24000, 1001), Rational(2997, 100): Rational(30000, 1001),
        Rational(47952, 1000): Rational(48000, 1001), Rational(5994, 100): Rational(60000, 1001),
        Rational(11988, 100): Rational(120000, 1001),
    ]

    /// The exact rate `text` means; nil when it is not a positive number or fraction.
    public static func parse(_ text: String) -> Rational? {
        guard let r = Rational(exactly: text), !r.isNegative, !r.isZero else { return nil }
        return ntsc[r] ?? r
    }
}
