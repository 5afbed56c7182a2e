/// A colour with straight (not premultiplied) alpha, each channel in [0, 1], sRGB.
public struct Color: Hashable, Sendable, Codable, CustomStringConvertible {
    public var red: Double
    public var green: Double
    public var blue: Double
    public var alpha: Double

    public init(red: Double, green: Double, blue: Double, alpha: Double = 1) {
        self.red = red
        self.green = green
        self.blue = blue
        self.alpha = alpha
    }

    public static let black = Color(red: 0, green: 0, blue: 0)
    public static let white = Color(red: 1, green: 1, blue: 1)
    public static let transparent = Color(red: 0, green: 0, blue: 0, alpha: 0)

    /// Parses `#rgb`, `#rgba`, `#rrggbb`, `#rrggbbaa` and the names in `Color.named`.
    public init?(parsing text: String) {
        if let named = Color.named[text.lowercased()] { self = named; return }
        guard text.first == "#" else { return nil }
        var hex = Array(text.dropFirst())
        if hex.count == 3 || hex.count == 4 { hex = hex.flatMap { [$0, $0] } }
        guard hex.count == 6 || hex.count == 8 else { return nil }
        var channels: [Double] = []
        for i in stride(from: 0, to: hex.count, by: 2) {
            guard let v = UInt8(String(hex[i...i + 1]), radix: 16) else { return nil }
            channels.append(Double(v) / 255)
        }
        self.init(red: channels[0], green: channels[1], blue: channels[2], alpha: channels.count == 4 ? channels[3] : 1)
    }

    public static let named: [String: Color] = [
        "black": .black, "white": .white, "transparent": .transparent,
        "red": Color(red: 1, green: 0, blue: 0), "green": Color(red: 0, green: 128.0 / 255, blue: 0),
        "blue": Color(red: 0, green: 0, blue: 1), "yellow": Color(red: 1, green: 1, blue: 0),
        "gray": Color(red: 128.0 / 255, green: 128.0 / 255, blue: 128.0 / 255),
    ]

    /// Whether the colour's alpha is a full 255 in 8 bits (what a picture stores): a background
    /// that is not opaque makes the output keep an alpha channel.
    public var isOpaque: Bool { (min(max(alpha, 0), 1) * 255).rounded() >= 255 }

    /// `#rrggbb` or `#rrggbbaa`.
    public var description: String {
        func hex(_ v: Double) -> String {
            let b = Int((min(max(v, 0), 1) * 255).rounded())
            let digits = Array("0123456789abcdef")
            return String([digits[b / 16], digits[b % 16]])
        }
        return "#" + hex(red) + hex(green) + hex(blue) + (alpha < 1 ? hex(alpha) : "")
    }
}
