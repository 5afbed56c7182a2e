extension Look {
    /// `{ type: blur, radius }`: a Gaussian blur; `radius` is its standard deviation in output
    /// pixels (as CSS `blur()`).
    public static let blur: Look = {
        // Beyond a frame's size a blur is a flat colour.
        let maximum = 1000.0
        let radius = LookParameter.number("radius", default: 0, 0...maximum, "a blur radius is from 0 to \(Int(maximum)) pixels", listed: .value)
        return Look(name: "blur", parameters: [radius])
    }()
}
