import Looks

extension LookKernel {
    /// `Look.color`'s pixels.
    static let color = LookKernel(.color) { settings in
        ColorKernel(brightness: settings.number("brightness"), contrast: settings.number("contrast"),
                    saturation: settings.number("saturation"), temperature: settings.number("temperature"))
    }
}

/// `{ type: color }` at one instant, in 4.12 fixed point: the white balance moved to a colour
/// temperature (a 3×3 matrix on Y′CbCr, the R′G′B′ gains of that light, luma kept, expressed there), then
/// contrast about mid grey and brightness on luma, saturation on chroma.
struct ColorKernel: PixelLook {
    /// Row-major matrix on (Y′ − 16, Cb − 128, Cr − 128); nil at 6500 K.
    let balance: [Int32]?
    let contrast: Int32, brightness: Int32, saturation: Int32

    init(brightness: Double, contrast: Double, saturation: Double, temperature: Double) {
        self.contrast = Int32((contrast * 4096).rounded())
        self.brightness = Int32((brightness * 219 * 4096).rounded())
        self.saturation = Int32((saturation * 4096).rounded())
        let gains = Self.gains(kelvin: temperature)
        balance = temperature == Look.neutralTemperature ? nil : Self.matrix(gains: gains).map { Int32(($0 * 4096).rounded()) }
    }

    @inline(__always) func apply(y: inout Int32, cb: inout Int32, cr: inout Int32, alpha: inout Int32) {
        if let m = balance {
            let l = y - 16, u = cb - 128, v = cr - 128
            y = 16 + ((m[0] * l + m[1] * u + m[2] * v + 2048) >> 12)
            cb = 128 + ((m[3] * l + m[4] * u + m[5] * v + 2048) >> 12)
            cr = 128 + ((m[6] * l + m[7] * u + m[8] * v + 2048) >> 12)
        }
        // Mid grey is 125.5 (16 + 219 / 2): work in half levels.
        y = min(max(((2 * y - 251) * contrast + 2 * brightness + 251 * 4096 + 4096) >> 13, 0), 255)
        cb = min(max(128 + (((cb - 128) * saturation + 2048) >> 12), 0), 255)
        cr = min(max(128 + (((cr - 128) * saturation + 2048) >> 12), 0), 255)
    }

    /// The sRGB colour of black-body light (M. Charity's table, "What color is a blackbody?",
    /// 2° CIE 1964 with D65 white), every 500 K from 1000 K to 12000 K, then 15000, 20000, 40000.
    private static let kelvins: [Double] = Array(stride(from: 1000.0, through: 12000, by: 500)) + [15000, 20000, 40000]
    private static let blackBody: [(Double, Double, Double)] = [
        (255, 56, 0), (255, 109, 0), (255, 137, 18), (255, 161, 72), (255, 180, 107), (255, 196, 137), (255, 209, 163),
        (255, 219, 186), (255, 228, 206), (255, 236, 224), (255, 243, 239), (255, 249, 253), (245, 243, 255), (235, 238, 255),
        (227, 233, 255), (220, 229, 255), (214, 225, 255), (208, 222, 255), (204, 219, 255), (200, 217, 255), (196, 215, 255),
        (193, 213, 255), (191, 211, 255), (181, 205, 255), (170, 198, 255), (155, 188, 255),
    ]

    /// R′G′B′ gains that tint white to the light at `kelvin`, relative to 6500 K, scaled so that
    /// white keeps its luma (interpolated linearly between the table's entries; only + − × ÷,
    /// so the same on every machine).
    static func gains(kelvin: Double) -> (Double, Double, Double) {
        let t = min(max(kelvin, kelvins[0]), kelvins[kelvins.count - 1])
        var i = 0
        while i + 2 < kelvins.count && kelvins[i + 1] <= t { i += 1 }
        let f = (t - kelvins[i]) / (kelvins[i + 1] - kelvins[i])
        func mix(_ a: Double, _ b: Double) -> Double { a + (b - a) * f }
        let (low, high) = (blackBody[i], blackBody[i + 1]), white = blackBody[11]
        let (r, g, b) = (mix(low.0, high.0) / white.0, mix(low.1, high.1) / white.1, mix(low.2, high.2) / white.2)
        let luma = 0.2126 * r + 0.7152 * g + 0.0722 * b
        return (r / luma, g / luma, b / luma)
    }

    /// diag(gains) expressed on BT.709 limited-range (Y′ − 16, Cb − 128, Cr − 128): T·G·T⁻¹.
    static func matrix(gains g: (Double, Double, Double)) -> [Double] {
        let kr = 0.2126, kb = 0.0722, kg = 1 - kr - kb, ys = 219.0 / 255, cs = 224.0 / 255
        let t: [Double] = [kr * ys, kg * ys, kb * ys,
                           -kr / (2 * (1 - kb)) * cs, -kg / (2 * (1 - kb)) * cs, 0.5 * cs,
                           0.5 * cs, -kg / (2 * (1 - kr)) * cs, -kb / (2 * (1 - kr)) * cs]
        let inverse: [Double] = [1 / ys, 0, 2 * (1 - kr) / cs,
                                 1 / ys, -2 * (1 - kb) * kb / kg / cs, -2 * (1 - kr) * kr / kg / cs,
                                 1 / ys, 2 * (1 - kb) / cs, 0]
        let gains = [g.0, g.1, g.2]
        var result = [Double](repeating: 0, count: 9)
        for row in 0..<3 {
            for col in 0..<3 {
                for k in 0..<3 { result[row * 3 + col] += t[row * 3 + k] * gains[k] * inverse[k * 3 + col] }
            }
        }
        return result
    }
}
