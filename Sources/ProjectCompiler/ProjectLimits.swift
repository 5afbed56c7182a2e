import JSONSchema
import MediaTime
import ProjectFile

/// What a project may ask for, in one place. Times, rates and speeds are exact fractions of
/// 64-bit integers (`Rational`), so a project that asked for a time of a billion hours, a
/// frame rate of a million, or times and speeds with fifteen decimals would make the
/// arithmetic of compiling and rendering overflow. The decoder refuses such values at their
/// line and column with the limit named; the schema repeats the bounds it can express
/// (`output.size`, numeric `fps`, `speed`, `bitrate`). docs/reliability.md lists them.
public enum ProjectLimits {
    /// The largest time a project may write (an in or out point, a duration, a start, a
    /// keyframe, a fade, `output.duration`) and the longest timeline: 24 hours.
    public static let maxTimeSeconds = 24 * 3600
    /// Times written as decimals keep at most 6 fraction digits: a microsecond. (Frame counts
    /// and SMPTE timecode are exact at any frame rate.)
    public static let timeDecimals = 6
    /// Frame rates from 1 to 1000 fps, as a fraction whose denominator is at most 1001
    /// (`30000/1001`, `12.5`, `23.976`; decimals with at most three digits).
    public static let minFPS = Rational(1)
    public static let maxFPS = Rational(1000)
    public static let maxRateDenominator: Int64 = 1001
    /// Speeds from 1/100 to 100, with a denominator of at most 1001 (`0.125`, `"3/2"`, `"1001/1000"`).
    public static let minSpeed = Rational(1, 100)
    public static let maxSpeed = Rational(100)
    /// Bit rates up to 1 Gbit/s.
    public static let maxBitrate = 1_000_000_000
    /// Output frames: at most 16384 pixels a side (the schema's bound) and as many pixels as
    /// 8K UHD (7680 x 4320 = 33 177 600). Rendering needs about 43 bytes per output pixel
    /// (decoded, composited and encoder frames in flight): measured peaks of 183 MB at 1080p,
    /// 432 MB at 4K UHD, 1.4 GB at 8K UHD and 2.9 GB at 8192 x 8192.
    public static let maxOutputSide = 16384
    public static let maxOutputPixels = 7680 * 4320

    public static var maxTime: MediaTime { MediaTime(seconds: maxTimeSeconds) }

    public struct Problem: Sendable, Equatable {
        public var message: String
        public var hint: String?
    }

    /// A time as written (`text`) and as parsed, at the output's frame rate.
    public static func problem(time t: MediaTime, text: String, fps: Rational) -> Problem? {
        guard t.value.magnitude <= maxTime.value else {
            return Problem(message: "'\(text)' is longer than \(maxTimeSeconds / 3600) hours, the longest time a project may use",
                           hint: "times and timelines are limited to 24 h (docs/reliability.md)")
        }
        let micro = t.value.multiplied(by: Rational(1_000_000))
        let frames = t.value.multiplied(by: fps)
        guard micro?.isInteger == true || frames?.isInteger == true else {
            return Problem(message: "'\(text)' is more precise than Reel keeps: a time has at most \(timeDecimals) decimals (a microsecond)",
                           hint: "round it to microseconds, or count frames (\"12f\")")
        }
        return nil
    }

    public static func problem(fps: Rational, text: String) -> Problem? {
        guard fps >= minFPS, fps <= maxFPS, fps.denominator <= maxRateDenominator else {
            return Problem(message: "frame rate '\(text)' is outside what Reel renders: 1 to 1000 fps, as a fraction with a denominator of at most \(maxRateDenominator)",
                           hint: "use a rate such as 24, 25, 29.97, 30, 50, 60 or \"30000/1001\"")
        }
        return nil
    }

    public static func problem(speed: Rational, text: String) -> Problem? {
        guard speed >= minSpeed, speed <= maxSpeed, speed.denominator <= maxRateDenominator else {
            return Problem(message: "speed '\(text)' is outside what Reel plays: from 0.01 to 100, as a fraction with a denominator of at most \(maxRateDenominator)",
                           hint: "write, for example, 2, 0.5, 0.125 or \"3/2\"")
        }
        return nil
    }

    public static func problem(bitrate: Rational, text: String) -> Problem? {
        guard bitrate <= Rational(Int64(maxBitrate)), bitrate >= Rational(1) else {
            return Problem(message: "bit rate '\(text)' is outside 1 bit/s to 1 Gbit/s", hint: "write, for example, 128000, \"128k\" or \"8M\"")
        }
        return nil
    }

    public static func problem(outputWidth w: Int, height h: Int) -> Problem? {
        guard w <= maxOutputSide, h <= maxOutputSide, w * h <= maxOutputPixels else {
            return Problem(message: "output size \(w)x\(h) is larger than Reel renders: at most \(maxOutputSide) pixels a side and \(maxOutputPixels) pixels in all (8K UHD, 7680x4320)",
                           hint: "rendering needs about 43 bytes per output pixel: 1.4 GB at 8K UHD")
        }
        return nil
    }
}

extension ProjectLimits {
    /// Every number of a project (outside `vars:` and bit rates) lies within ±1 000 000 —
    /// positions, sizes, offsets, scales, angles, font sizes, blurs, keyframe values — and a
    /// percentage within ±10 000 %: a position of 1e300 pixels trapped converting to an
    /// integer pixel in the compositor. Real values are far inside (frames are at most 16384
    /// pixels a side, times at most 86 400 s).
    public static let maxMagnitude = 1_000_000.0
    public static let maxPercent = 10_000.0

    /// A diagnostic for each number or percentage beyond the bounds, at its place.
    public static func numberProblems(_ root: Node) -> [Diagnostic] {
        var problems: [Diagnostic] = []
        var path = PathStack()
        func visit(_ node: Node) {
            switch node.value {
            case .number(let text):
                if let v = Double(text), v.isFinite, abs(v) <= maxMagnitude { return }
                problems.append(Diagnostic(location: node.location, path: path.rendered,
                                           message: "\(text) is beyond what Reel draws: numbers in a project lie within ±1000000",
                                           hint: "positions, sizes, scales and the like are far smaller; was a digit or an exponent added?"))
            case .string(let text):
                guard text.hasSuffix("%"), let v = Double(text.dropLast()) else { return }
                if v.isFinite, abs(v) <= maxPercent { return }
                problems.append(Diagnostic(location: node.location, path: path.rendered,
                                           message: "\(text) is beyond what Reel draws: percentages lie within ±10000%"))
            case .array(let items):
                for (i, item) in items.enumerated() {
                    path.push(.index(i))
                    visit(item)
                    path.pop()
                }
            case .object(let members):
                for m in members {
                    if path.components.isEmpty && ["vars", "media", "fonts"].contains(m.key) { continue }
                    // Bits per second have their own limit; text is text ("20000%" is a fine title).
                    if ["bitrate", "text", "metadata", "path", "name"].contains(m.key) { continue }
                    path.push(.key(m.key))
                    visit(m.value)
                    path.pop()
                }
            default:
                return
            }
        }
        visit(root)
        return problems
    }
}
