extension Look {
    /// `{ type: lut }`: a 3D LUT from a `.cube` file, mixed with the picture by `intensity` (0…1).
    public static let lut: Look = {
        let file = LookParameter("file", .lut, listed: .value,
                                 summary: "A .cube 3D LUT file (LUT_3D_SIZE, DOMAIN_MIN/MAX), relative to the project; applied to R′G′B′ with tetrahedral interpolation.")
        let intensity = LookParameter.number("intensity", default: 1, listed: .namedUnlessDefault,
                                             summary: "How much of the LUT's result replaces the picture, 0 to 1 (default 1).")
        return Look(name: "lut", summary: "a .cube 3D LUT",
                    documentation: "A 3D LUT on R′G′B′ with tetrahedral interpolation (as FFmpeg's `lut3d`, within one level of it), mixed with the "
                        + "picture by `intensity`. `LUT_3D_SIZE` (2…129), `DOMAIN_MIN`/`DOMAIN_MAX`, `TITLE` and `#` comments are read; 1D LUTs "
                        + "are refused. The file is an input of the render: `reel validate` reads it (errors say `file:line`), and its bytes are "
                        + "part of the segment cache's keys.",
                    parameters: [file, intensity])
    }()
}
