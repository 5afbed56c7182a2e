extension Look {
    /// `{ type: chroma_key }`: pixels near `color` become transparent.
    public static let chromaKey: Look = {
        let color = LookParameter("color", .color, listed: .value)
        // Chroma distance from the key colour, as a fraction of the largest possible (0…1),
        // under which a pixel is fully transparent.
        let similarity = LookParameter.number("similarity", default: 0.4, listed: .named)
        // The width, in the same unit, of the ramp from transparent to opaque beyond `similarity`.
        let softness = LookParameter.number("softness", default: 0.1, listed: .named)
        // How much of the key colour's hue is taken out of what stays (0…1).
        let spill = LookParameter.number("spill", default: 0.5, listed: .named)
        return Look(name: "chroma_key", parameters: [color, similarity, softness, spill], makesAlpha: true, graphKey: "chromaKey",
                    nestsParameters: true)
    }()
}
