extension Look {
    /// `{ type: color }`: in this order, the white balance moved to `temperature`, then
    /// contrast about mid grey, brightness and saturation. Each at its default leaves the picture.
    public static let color: Look = {
        // Added to luma, as a fraction of the luma range.
        let brightness = LookParameter.number("brightness", default: 0, -1...1, "brightness is from -1 to 1 (0 leaves the picture)",
                                              listed: .namedUnlessDefault)
        // Luma's distance from mid grey is multiplied by it.
        let contrast = LookParameter.number("contrast", default: 1, 0...10, "contrast is from 0 to 10 (1 leaves the picture)", listed: .namedUnlessDefault)
        // Chroma is multiplied by it (0 is grey).
        let saturation = LookParameter.number("saturation", default: 1, 0...10, "saturation is from 0 to 10 (1 leaves the picture)",
                                              listed: .namedUnlessDefault)
        // Kelvin: the picture is tinted towards the colour of light at this temperature relative
        // to 6500 K (below: warmer, orange; above: cooler, blue).
        let temperature = LookParameter.number("temperature", default: Look.neutralTemperature, 1000...40000,
                                               "temperature is in kelvin, from 1000 to 40000 (6500 leaves the picture)", listed: .namedUnlessDefault)
        return Look(name: "color", parameters: [brightness, contrast, saturation, temperature], nestsParameters: true)
    }()
}

extension Look {
    /// The colour temperature that leaves a picture as it is (daylight, D65's white): the
    /// default of `color`'s `temperature`.
    public static let neutralTemperature = 6500.0
}
