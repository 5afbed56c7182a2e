import OverlayRendering
import Testing

@Suite struct ContactSheetTests {
    /// A `width × height` tile of one opaque colour (B, G, R bytes).
    static func tile(_ b: UInt8, _ g: UInt8, _ r: UInt8, width: Int = 40, height: Int = 30, caption: String) -> ContactSheet.Tile {
        ContactSheet.Tile(width: width, height: height, bgra: Array(repeating: [b, g, r, 255], count: width * height).flatMap { $0 },
                          caption: caption)
    }

    static func pixel(_ sheet: SpritePixels, x: Int, y: Int) -> [UInt8] {
        sheet.withUnsafeBytes { Array($0[(y * sheet.stride + 4 * x)..<(y * sheet.stride + 4 * x + 4)]) }
    }

    @Test func tilesSitInAGridWithCaptionsUnderThem() throws {
        let tiles = [Self.tile(0, 0, 255, caption: "00:00:00.000  #0"), Self.tile(0, 255, 0, caption: "00:00:01.000  #30"),
                     Self.tile(255, 0, 0, caption: "00:00:02.000  #60")]
        var style = ContactSheet.Style()
        style.columns = 2
        let sheet = try ContactSheet.draw(tiles, title: nil, style: style, fonts: FontCatalog(fontFiles: []))
        // 2 columns of 40 px, 3 gaps of 16; 2 rows of 30 px + 29 px captions, 3 gaps.
        #expect(sheet.width == 2 * 40 + 3 * 16 && sheet.height == 2 * (30 + 29) + 3 * 16)
        #expect(Self.pixel(sheet, x: 16, y: 16) == [0, 0, 255, 255])                    // first tile, top-left
        #expect(Self.pixel(sheet, x: 16 + 40 + 16 + 39, y: 16 + 29) == [0, 255, 0, 255]) // second tile, bottom-right
        #expect(Self.pixel(sheet, x: 16 + 20, y: 16 + 30 + 29 + 16 + 15) == [255, 0, 0, 255])
        #expect(Self.pixel(sheet, x: 8, y: 8) == [28, 26, 26, 255])                       // the background
        // Light caption pixels under the first tile, none under the empty cell.
        func lightPixels(x: Range<Int>, y: Range<Int>) -> Int {
            y.reduce(0) { sum, row in sum + x.filter { Self.pixel(sheet, x: $0, y: row)[1] > 128 }.count }
        }
        #expect(lightPixels(x: 16..<56, y: 46..<75) > 20)
        #expect(lightPixels(x: 72..<112, y: 121..<150) == 0)
    }

    @Test func theSameTilesGiveTheSamePixels() throws {
        let tiles = (0..<5).map { Self.tile(UInt8($0 * 40), 90, 200, caption: "frame \($0) with a caption far too long for its cell") }
        func bytes() throws -> [UInt8] {
            let sheet = try ContactSheet.draw(tiles, title: "Examples/promo/project.yaml · 1920x1080", fonts: FontCatalog(fontFiles: []))
            return sheet.withUnsafeBytes { Array($0) }
        }
        #expect(try bytes() == bytes())
    }
}
