@testable import RenderEngine
import Testing

/// The GIF palette: median cut of the counted colours, integer maths, the last entry
/// transparent; frames mapped with an ordered dither that never moves a colour further than
/// the dither's ±8 levels allow.
@Suite struct GIFPaletteTests {
    /// A picture of the 4×4×4 colours with channels 16, 80, 144, 208, each a 3×3 block.
    static let levels = [16, 80, 144, 208]
    static let colors: [(Int, Int, Int)] = levels.flatMap { r in levels.flatMap { g in levels.map { b in (r, g, b) } } }
    static let width = 8 * 3, height = 8 * 3

    static func picture() -> [UInt8] {
        var rgb = [UInt8](repeating: 0, count: 3 * width * height)
        for y in 0..<height {
            for x in 0..<width {
                let c = colors[(y / 3) * 8 + x / 3]
                let p = 3 * (y * width + x)
                rgb[p] = UInt8(c.0)
                rgb[p + 1] = UInt8(c.1)
                rgb[p + 2] = UInt8(c.2)
            }
        }
        return rgb
    }

    func palette(_ rgb: [UInt8]) -> GIFPalette {
        var count = GIFColorCount()
        rgb.withUnsafeBytes { count.add(rgb: $0, width: Self.width, height: Self.height, stride: 3 * Self.width) }
        return GIFPalette(count)
    }

    @Test func fewColoursAreKeptExactly() {
        let palette = palette(Self.picture())
        #expect(palette.count == 64)
        let made = Set(palette.colors.prefix(64))
        #expect(made == Set(Self.colors.map { 0xFF00_0000 | UInt32($0.0) << 16 | UInt32($0.1) << 8 | UInt32($0.2) }))
        #expect(palette.colors.count == 256 && palette.colors[255] == 0, "the last entry is transparent")
        #expect(palette == self.palette(Self.picture()), "the same colours, the same palette")
    }

    @Test func ditheredPixelsMapBackToTheirColour() {
        let rgb = Self.picture()
        let palette = palette(rgb)
        var lookup = GIFColorLookup()
        let indices = rgb.withUnsafeBytes { palette.indices(rgb: $0, width: Self.width, height: Self.height, stride: 3 * Self.width, lookup: &lookup) }
        for (i, index) in indices.enumerated() {
            let c = palette.colors[Int(index)]
            let entry: [UInt32] = [c >> 16 & 0xFF, c >> 8 & 0xFF, c & 0xFF]
            let pixel: [UInt32] = [UInt32(rgb[3 * i]), UInt32(rgb[3 * i + 1]), UInt32(rgb[3 * i + 2])]
            #expect(entry == pixel, "pixel \(i)")
        }
    }

    /// A smooth ramp of 4096 colours: 255 entries, each pixel within 24 levels a channel of its
    /// entry (the dither's 8 plus half a box), and the mean error small.
    @Test func manyColoursAreCutInto255() {
        var rgb: [UInt8] = []
        for i in 0..<4096 {
            rgb.append(UInt8(i % 64 * 4))
            rgb.append(UInt8(i / 64 * 4))
            rgb.append(128)
        }
        var count = GIFColorCount()
        rgb.withUnsafeBytes { count.add(rgb: $0, width: 64, height: 64, stride: 192) }
        let palette = GIFPalette(count)
        #expect(palette.count == 255)
        var lookup = GIFColorLookup()
        let indices = rgb.withUnsafeBytes { palette.indices(rgb: $0, width: 64, height: 64, stride: 192, lookup: &lookup) }
        var total = 0
        for (i, index) in indices.enumerated() {
            let c = Int(palette.colors[Int(index)])
            let dr = abs((c >> 16 & 0xFF) - Int(rgb[3 * i]))
            let dg = abs((c >> 8 & 0xFF) - Int(rgb[3 * i + 1]))
            let d: [Int] = [dr, dg, abs((c & 0xFF) - Int(rgb[3 * i + 2]))]
            #expect(d.max()! <= 24, "pixel \(i): \(d)")
            total += d.reduce(0, +)
        }
        #expect(Double(total) / Double(3 * 4096) < 6, "mean error \(Double(total) / Double(3 * 4096))")
    }
}
