import PortableMath

/// Robert Penner's easing families, as CSS libraries and motion tools name them (easings.net):
/// each an eased-in curve `f`, eased out as 1 − f(1 − x) and in and out by halves.
public enum EasingFamily: String, Hashable, Sendable, Codable, CaseIterable {
    case sine, quad, cubic, quart, quint, expo, circ, back, elastic, bounce

    /// What `ease-in-FAMILY` does, for docs/format.md.
    var easedInSummary: String {
        switch self {
        case .sine: "starts slowly, along a quarter of a sine wave"
        case .quad: "starts slowly: x²"
        case .cubic: "starts slowly: x³"
        case .quart: "starts slowly: x⁴"
        case .quint: "starts slowly: x⁵"
        case .expo: "starts very slowly: 2^(10x − 10)"
        case .circ: "starts slowly, along a quarter of a circle"
        case .back: "first goes back a little (10 % of the way), then on"
        case .elastic: "swings about the start like a spring, wider and wider, then goes"
        case .bounce: "bounces on the start like a dropped ball, higher and higher, then goes"
        }
    }

    /// What `ease-END-FAMILY` does, for docs/format.md.
    func summary(_ end: EasingEnd) -> String {
        switch end {
        case .in: easedInSummary
        case .out: "`ease-in-\(rawValue)` backwards: the same at the end"
        case .inOut: "`ease-in-\(rawValue)` to the middle, then `ease-out-\(rawValue)`"
            + (self == .back || self == .elastic ? " (Penner's in-out constants: a wider swing)" : "")
        }
    }

    /// The eased-in curve at `x` in [0, 1]: 0 at 0, 1 at 1.
    func easedIn(_ x: Double) -> Double {
        switch self {
        case .sine: return 1 - PortableMath.cos(x * .pi / 2)
        case .quad: return x * x
        case .cubic: return x * x * x
        case .quart: return x * x * x * x
        case .quint: return x * x * x * x * x
        case .expo: return x == 0 ? 0 : PortableMath.pow(2, 10 * x - 10)
        case .circ: return 1 - (1 - x * x).squareRoot()
        case .back: return Self.backC3 * x * x * x - Self.backC1 * x * x
        case .elastic:
            if x == 0 || x == 1 { return x }
            return -PortableMath.pow(2, 10 * x - 10) * PortableMath.sin((10 * x - 10.75) * Self.elasticC4)
        case .bounce: return 1 - Self.bounceOut(1 - x)
        }
    }

    /// Eased at `end` (in, out or both), at `x` in [0, 1].
    func value(_ x: Double, end: EasingEnd) -> Double {
        switch end {
        case .in: return easedIn(x)
        case .out: return 1 - easedIn(1 - x)
        case .inOut:
            // Penner's back and elastic take wider constants for the two halves; the rest are
            // their eased-in curve at twice the speed, then its mirror.
            switch self {
            case .back:
                let c2 = Self.backC1 * 1.525
                return x < 0.5 ? (4 * x * x * ((c2 + 1) * 2 * x - c2)) / 2
                               : ((2 * x - 2) * (2 * x - 2) * ((c2 + 1) * (2 * x - 2) + c2) + 2) / 2
            case .elastic:
                if x == 0 || x == 1 { return x }
                let c5 = 2 * Double.pi / 4.5
                return x < 0.5 ? -(PortableMath.pow(2, 20 * x - 10) * PortableMath.sin((20 * x - 11.125) * c5)) / 2
                               : PortableMath.pow(2, -20 * x + 10) * PortableMath.sin((20 * x - 11.125) * c5) / 2 + 1
            default:
                return x < 0.5 ? easedIn(2 * x) / 2 : 1 - easedIn(2 - 2 * x) / 2
            }
        }
    }

    private static let backC1 = 1.70158
    private static let backC3 = backC1 + 1
    private static let elasticC4 = 2 * Double.pi / 3

    /// A ball dropped from 1, bouncing three times as it comes to rest at 1.
    private static func bounceOut(_ x: Double) -> Double {
        let n1 = 7.5625, d1 = 2.75
        if x < 1 / d1 { return n1 * x * x }
        if x < 2 / d1 { let t = x - 1.5 / d1; return n1 * t * t + 0.75 }
        if x < 2.5 / d1 { let t = x - 2.25 / d1; return n1 * t * t + 0.9375 }
        let t = x - 2.625 / d1
        return n1 * t * t + 0.984375
    }
}

/// Where an easing family's slowness is: at the start, the end, or both.
public enum EasingEnd: String, Hashable, Sendable, Codable, CaseIterable {
    case `in`, out, inOut = "in-out"
}
