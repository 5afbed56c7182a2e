import Foundation
import Testing
import TestSupport
@testable import OverlayRendering

/// gdk-pixbuf decodes overlay images: the header's size is checked first (PictureLimits), so a
/// decompression bomb is refused by name instead of allocating gigabytes (or tripping Cairo's
/// 32767-pixel limit, which crashed on a precondition).
@Suite struct ImageLimitTests {
    @Test(arguments: [(30000, 30000), (20000, 8)])
    func oversizedImagesAreRefusedBeforeLoading(width: Int, height: Int) throws {
        for path in [try HostileMedia.declaredPNG(width: width, height: height)] + (width == 30000 ? [try HostileMedia.pngBomb(width: 30000, height: 30000)] : []) {
            var error: OverlayError?
            let cpu = threadCPUSeconds { error = #expect(throws: OverlayError.self) { _ = try RasterImage.load(path) } }
            #expect(cpu < 1, "\(cpu) s of CPU")
            let text = error.map { "\($0)" } ?? ""
            #expect(text.contains(path) && text.contains("\(width)x\(height)") && text.contains("at most 16384 pixels a side"), "\(text)")
        }
    }

    @Test func imagesWithinTheLimitLoad() throws {
        let image = try RasterImage.load(try HostileMedia.pngBomb(width: 640, height: 480))
        #expect(image.naturalWidth == 640 && image.naturalHeight == 480)
    }
}
