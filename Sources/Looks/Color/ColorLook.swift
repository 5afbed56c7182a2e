extension Look {
    /// `{ type: color }`: in this order, the white balance moved to `temperature`, then
    /// contrast about mid grey, brightness and saturation. Each at its default leaves the picture.
    public static let color: Look = {
        // Added to luma, as a fraction of the luma range.
        let brightness = LookParameter.number("brightness", default: 0, -1...1, "brightness is from -1 to 1 (0 leaves the picture)",
                                              listed: .namedUnlessDefault, summary: "Added to luma as a fraction of its range, -1 to 1 (default 0).")
        // Luma's distance from mid grey is multiplied by it.
        let contrast = LookParameter.number("contrast", default: 1, 0...10, "contrast is from 0 to 10 (1 leaves the picture)", listed: .namedUnlessDefault,
                                            summary: "Luma's distance from mid grey is multiplied by it, 0 to 10 (default 1).")
        // Chroma is multiplied by it (0 is grey).
        let saturation = LookParameter.number("saturation", default: 1, 0...10, "saturation is from 0 to 10 (1 leaves the picture)",
                                              listed: .namedUnlessDefault, summary: "Chroma is multiplied by it: 0 grey, 1 unchanged (default), up to 10.")
        // Kelvin: the picture is tinted towards the colour of light at this temperature relative
        // to 6500 K (below: warmer, orange; above: cooler, blue).
        let temperature = LookParameter.number("temperature", default: Look.neutralTemperature, 1000...40000,
                                               "temperature is in kelvin, from 1000 to 40000 (6500 leaves the picture)", unit: "K", listed: .namedUnlessDefault,
                                               summary: "Kelvin, 1000 to 40000: the picture is tinted towards light of this colour relative to 6500 K "
                                                   + "(default 6500, unchanged; lower is warmer, higher cooler).")
        let parameters = [brightness, contrast, saturation, temperature]
        return Look(name: "color", summary: parameters.map(\.name).joined(separator: ", "),
                    documentation: "In this order: the picture is tinted towards the colour of black-body light at `temperature` relative to 6500 K "
                        + "(lower is warmer, orange; higher is cooler, blue; R′G′B′ gains after M. Charity's black-body table, scaled to keep luma, "
                        + "applied as one matrix on Y′CbCr); luma's distance from mid grey is multiplied by `contrast`; `brightness` × 219 levels "
                        + "is added to luma; chroma is multiplied by `saturation`.",
                    parameters: parameters, nestsParameters: true)
    }()
}

extension Look {
    /// The colour temperature that leaves a picture as it is (daylight, D65's white): the
    /// default of `color`'s `temperature`.
    public static let neutralTemperature = 6500.0
}
