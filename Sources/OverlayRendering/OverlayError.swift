/// Why overlays cannot be drawn: each case says what is wrong, and `description` what to do.
public struct OverlayError: Error, Hashable, Sendable, CustomStringConvertible {
    public enum Reason: Hashable, Sendable {
        /// A font file listed in the project does not exist.
        case fontFileMissing(path: String)
        /// A font path names a folder, a FIFO or a device.
        case fontFileNotAFile(path: String, problem: String)
        /// A font file exists but fontconfig cannot read a font from it.
        case fontFileUnusable(path: String)
        /// No font of this family is installed or listed in the project.
        case unknownFontFamily(family: String, available: [String])
        /// An image or SVG file cannot be read or decoded.
        case unreadableImage(path: String, detail: String)
        /// A shape has no natural size, so it needs `width` and/or `height`.
        case shapeNeedsSize
        /// `fit: shrink` needs a box to fit into.
        case shrinkNeedsBox
    }

    public var reason: Reason
    /// Index of the overlay in the graph's list, when the error is about one layer.
    public var layerIndex: Int?

    public init(_ reason: Reason, layerIndex: Int? = nil) {
        self.reason = reason
        self.layerIndex = layerIndex
    }

    public var description: String {
        let place = layerIndex.map { "overlay \($0): " } ?? ""
        switch reason {
        case .fontFileMissing(let path):
            return "\(place)font file '\(path)' does not exist; fix the path in `fonts:` (relative to the project file)"
        case .fontFileNotAFile(let path, let problem):
            return "\(place)font file '\(path)': \(problem); list the font file itself (.ttf, .otf, .ttc) in `fonts:`"
        case .fontFileUnusable(let path):
            return "\(place)font file '\(path)' is not a font fontconfig can read; list a TrueType/OpenType (.ttf, .otf, .ttc) file"
        case .unknownFontFamily(let family, let available):
            return "\(place)font family '\(family)' is not available; add its font file to `fonts:` or use one of: "
                + available.joined(separator: ", ")
        case .unreadableImage(let path, let detail):
            return "\(place)cannot read image '\(path)': \(detail); check that the file exists and is a PNG, JPEG, WebP (with webp-pixbuf-loader installed) or SVG"
        case .shapeNeedsSize:
            return "\(place)a rect or ellipse has no natural size; give it a width and/or height"
        case .shrinkNeedsBox:
            return "\(place)`fit: shrink` needs a box to shrink into; give the text a box width and/or height"
        }
    }
}
