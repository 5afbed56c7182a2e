extension Look {
    /// `{ type: blur, radius }`: a Gaussian blur; `radius` is its standard deviation in output
    /// pixels (as CSS `blur()`).
    public static let blur: Look = {
        // Beyond a frame's size a blur is a flat colour.
        let maximum = 1000.0
        let radius = LookParameter.number("radius", default: 0, 0...maximum, "a blur radius is from 0 to \(Int(maximum)) pixels", required: true, listed: .value,
                                          summary: "Standard deviation of the Gaussian in output pixels, 0 to \(Int(maximum)) (as CSS blur()); any radius costs the same.")
        return Look(name: "blur", summary: "Gaussian",
                    documentation: "A Gaussian blur whose standard deviation is `radius` output pixels (as CSS `blur()`), approximated by three box blurs "
                        + "along each axis; any radius costs the same.",
                    parameters: [radius])
    }()
}
