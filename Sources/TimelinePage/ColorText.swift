import CompositionGraph

/// Colours and fills of the graph as CSS.
enum ColorText {
    /// Whether dark text reads better than light text on `color` (relative luminance, sRGB
    /// channels taken as linear-enough for the choice; transparent colours show the dark page).
    static func isLight(_ color: Color) -> Bool {
        (0.2126 * color.red + 0.7152 * color.green + 0.0722 * color.blue) * color.alpha > 0.55
    }

    /// A CSS background for a shape's fill: the colour, or a `linear-gradient` (the graph's 0° is
    /// left to right, CSS's 0° bottom to top).
    static func css(_ fill: Fill) -> String {
        switch fill {
        case .color(let c):
            return c.description
        case .linearGradient(let angle, let stops):
            let parts = stops.map { "\($0.color) \(Decimal.short($0.offset * 100, places: 2))%" }
            return "linear-gradient(\(Decimal.short(angle + 90, places: 2))deg," + parts.joined(separator: ",") + ")"
        }
    }
}
