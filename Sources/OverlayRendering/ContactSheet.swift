internal import CCairo

/// A contact sheet: frames in a grid with a caption (their timecode) under each and an
/// optional title line above, light text on a dark background. Drawn with Cairo and Pango in
/// DejaVu Sans Mono from a `FontCatalog`, so the same frames always give the same pixels.
public enum ContactSheet {
    /// One frame of the sheet: 8-bit B, G, R, A bytes (Cairo's ARGB32 order on little-endian
    /// machines, opaque), `4 × width` bytes a row without padding.
    public struct Tile: Sendable {
        public var width: Int
        public var height: Int
        public var bgra: [UInt8]
        public var caption: String

        public init(width: Int, height: Int, bgra: [UInt8], caption: String) {
            precondition(bgra.count == 4 * width * height, "a \(width)x\(height) tile needs \(4 * width * height) bytes")
            self.width = width
            self.height = height
            self.bgra = bgra
            self.caption = caption
        }
    }

    /// Layout in pixels.
    public struct Style: Sendable {
        public var columns = 4
        public var gap = 16
        public var captionSize = 15.0
        public var titleSize = 20.0
        public init() {}
    }

    static let font = "DejaVu Sans Mono"
    static let background = (r: 26.0 / 255, g: 26.0 / 255, b: 28.0 / 255)
    static let text = (r: 220.0 / 255, g: 220.0 / 255, b: 220.0 / 255)

    /// The sheet. Tiles may differ in size (each cell is as large as the largest tile, the
    /// tile centred in it). Throws when DejaVu Sans Mono is not installed.
    public static func draw(_ tiles: [Tile], title: String?, style: Style = Style(), fonts: FontCatalog) throws(OverlayError) -> SpritePixels {
        precondition(!tiles.isEmpty && style.columns > 0, "a contact sheet needs tiles and columns")
        _ = try fonts.resolve(family: font)
        let columns = min(style.columns, tiles.count), rows = (tiles.count + columns - 1) / columns
        let cellWidth = tiles.map(\.width).max()!, cellHeight = tiles.map(\.height).max()!
        let captionHeight = Int((style.captionSize * 1.9).rounded())
        let titleHeight = title == nil ? 0 : Int((style.titleSize * 2).rounded())
        let width = columns * cellWidth + (columns + 1) * style.gap
        let height = titleHeight + rows * (cellHeight + captionHeight) + (rows + 1) * style.gap
        let sheet = SpritePixels(width: width, height: height)
        let cr = cairo_create(sheet.surface)!
        defer { cairo_destroy(cr) }
        cairo_set_source_rgb(cr, background.r, background.g, background.b)
        cairo_paint(cr)
        let context = fonts.makeContext()
        defer { releaseGObject(context) }
        if let title {
            drawText(title, size: style.titleSize, bold: true, x: Double(style.gap), y: Double(style.gap) + style.titleSize * 0.4,
                     maxWidth: Double(width - 2 * style.gap), centred: false, cr, context)
        }
        for (i, tile) in tiles.enumerated() {
            let cellX = style.gap + (i % columns) * (cellWidth + style.gap)
            let cellY = titleHeight + style.gap + (i / columns) * (cellHeight + captionHeight + style.gap)
            paint(tile, x: cellX + (cellWidth - tile.width) / 2, y: cellY + (cellHeight - tile.height) / 2, cr)
            drawText(tile.caption, size: style.captionSize, bold: false, x: Double(cellX),
                     y: Double(cellY + cellHeight) + style.captionSize * 0.45, maxWidth: Double(cellWidth), centred: true, cr, context)
        }
        cairo_surface_flush(sheet.surface)
        return sheet
    }

    private static func paint(_ tile: Tile, x: Int, y: Int, _ cr: OpaquePointer) {
        let image = cairo_image_surface_create(CAIRO_FORMAT_RGB24, Int32(tile.width), Int32(tile.height))!
        defer { cairo_surface_destroy(image) }
        let stride = Int(cairo_image_surface_get_stride(image))
        let data = cairo_image_surface_get_data(image)!
        tile.bgra.withUnsafeBytes { source in
            for row in 0..<tile.height {
                UnsafeMutableRawPointer(data + row * stride).copyMemory(from: source.baseAddress! + row * 4 * tile.width, byteCount: 4 * tile.width)
            }
        }
        cairo_surface_mark_dirty(image)
        cairo_set_source_surface(cr, image, Double(x), Double(y))
        cairo_paint(cr)
    }

    /// One line of text, ellipsized at `maxWidth`, its top at `y`.
    private static func drawText(_ text: String, size: Double, bold: Bool, x: Double, y: Double, maxWidth: Double, centred: Bool,
                                 _ cr: OpaquePointer, _ context: OpaquePointer) {
        let layout = pango_layout_new(context)!
        defer { releaseGObject(layout) }
        pango_layout_set_text(layout, text, -1)
        let description = pango_font_description_new()!
        defer { pango_font_description_free(description) }
        pango_font_description_set_family(description, font)
        pango_font_description_set_weight(description, bold ? PANGO_WEIGHT_BOLD : PANGO_WEIGHT_NORMAL)
        pango_font_description_set_absolute_size(description, size * Double(PANGO_SCALE))
        pango_layout_set_font_description(layout, description)
        pango_layout_set_width(layout, Int32(maxWidth * Double(PANGO_SCALE)))
        pango_layout_set_ellipsize(layout, PANGO_ELLIPSIZE_END)
        pango_layout_set_alignment(layout, centred ? PANGO_ALIGN_CENTER : PANGO_ALIGN_LEFT)
        cairo_set_source_rgb(cr, Self.text.r, Self.text.g, Self.text.b)
        cairo_move_to(cr, x, y)
        pango_cairo_show_layout(cr, layout)
    }
}
