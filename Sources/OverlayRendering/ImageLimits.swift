internal import CCairo
import MediaTime

/// `PictureLimits` for pictures gdk-pixbuf decodes (overlay images): the size the file's
/// header declares is checked before the picture is loaded, so a decompression bomb is
/// refused with the limit named instead of allocating gigabytes (or failing in Cairo, which
/// stops at 32767 pixels a side).
enum ImageLimits {
    static func check(_ path: String) throws(OverlayError) {
        var width: Int32 = 0, height: Int32 = 0
        guard gdk_pixbuf_get_file_info(path, &width, &height) != nil else { return } // not an image gdk-pixbuf knows: loading says why
        if let problem = PictureLimits.problem(width: Int(width), height: Int(height)) {
            throw OverlayError(.unreadableImage(path: path, detail: problem))
        }
    }
}
