/// The largest picture Reel decodes, defined once for the two decoders: FFmpeg in `MediaIO`
/// (`DecodeLimits`) and gdk-pixbuf in `OverlayRendering` (`RasterImage`). It lives here,
/// in the module both depend on, so that the numbers exist in one place.
///
/// A picture at the limit (16384 x 16384) decodes to 1 GiB of RGBA; a file declaring more
/// (a decompression bomb: a 110 KB PNG of 30000 x 30000) is refused when it is opened.
public enum PictureLimits {
    /// Widest and tallest picture.
    public static let maxSide = 16384
    /// Most pixels in one picture: 2^28 (16384 x 16384).
    public static let maxPixels = 1 << 28

    /// What is wrong with a picture of this size, or nil when it is within the limits.
    public static func problem(width: Int, height: Int) -> String? {
        guard width > maxSide || height > maxSide || width.multipliedReportingOverflow(by: height).partialValue > maxPixels
                || width.multipliedReportingOverflow(by: height).overflow else { return nil }
        return "its picture is \(width)x\(height) pixels, more than Reel decodes (at most \(maxSide) pixels a side and \(maxPixels) pixels in all)"
    }
}
