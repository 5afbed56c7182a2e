import Foundation
import MediaIO
import TestSupport
import Testing

/// PNG pictures decode to exactly the pixels that were encoded, one after another.
@Suite struct PictureDecoderTests {
    func picture(_ seed: Int, width: Int = 97, height: Int = 31) throws -> VideoFrame {
        let frame = try VideoFrame(width: width, height: height, pixelFormat: .rgb24)
        frame.withPlanes { planes in
            for y in 0..<height {
                for x in 0..<3 * width {
                    planes[0].baseAddress.storeBytes(of: UInt8(truncatingIfNeeded: (x * 7 + y * 13) ^ (x * y + seed)),
                                                     toByteOffset: y * planes[0].bytesPerRow + x, as: UInt8.self)
                }
            }
        }
        return frame
    }

    @Test func decodesWhatWasEncoded() throws {
        for seed in [1, 2, 3] {
            let frame = try picture(seed)
            let decoded = try PictureDecoder.decodePNG(try PNGEncoder.encode(frame), path: "(test)")
            #expect(decoded.pixelFormat == .rgb24 && decoded.width == 97 && decoded.height == 31)
            #expect(decoded.packedBytes(plane: 0) == frame.packedBytes(plane: 0), "picture \(seed)")
        }
    }
}
