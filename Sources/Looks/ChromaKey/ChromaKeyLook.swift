extension Look {
    /// `{ type: chroma_key }`: pixels near `color` become transparent.
    public static let chromaKey: Look = {
        let color = LookParameter("color", .color, listed: .value, summary: "The key colour made transparent, such as \"#00ff00\".", note: "the key")
        // Chroma distance from the key colour, as a fraction of the largest possible (0…1),
        // under which a pixel is fully transparent.
        let similarity = LookParameter.number("similarity", default: 0.4, listed: .named,
                                              summary: "Chroma distance from the key (0 to 1) under which a pixel is fully transparent (default 0.4).")
        // The width, in the same unit, of the ramp from transparent to opaque beyond `similarity`.
        let softness = LookParameter.number("softness", default: 0.1, listed: .named,
                                            summary: "Width of the ramp from transparent to opaque beyond similarity (default 0.1).")
        // How much of the key colour's hue is taken out of what stays (0…1).
        let spill = LookParameter.number("spill", default: 0.5, listed: .named,
                                         summary: "How much of the key's hue is taken out of what stays, 0 to 1 (default 0.5).")
        return Look(name: "chroma_key", summary: "a colour made transparent",
                    documentation: "Pixels whose chroma lies within `similarity` of the key's (distance in the Cb/Cr plane over 255·√2, as FFmpeg's "
                        + "`chromakey`) become transparent; beyond `similarity + softness` they stay opaque, with a linear ramp between. `spill` "
                        + "takes that share of the key's hue out of what stays (the chroma component along the key's direction), so a green "
                        + "fringe turns neutral. A keyed clip has alpha and is composited on the general path.",
                    parameters: [color, similarity, softness, spill], makesAlpha: true, graphKey: "chromaKey",
                    nestsParameters: true)
    }()
}
