extension Look {
    /// `{ type: lut }`: a 3D LUT from a `.cube` file, mixed with the picture by `intensity` (0…1).
    public static let lut: Look = {
        let file = LookParameter("file", .lut, listed: .value)
        let intensity = LookParameter.number("intensity", default: 1, listed: .namedUnlessDefault)
        return Look(name: "lut", parameters: [file, intensity])
    }()
}
