import CompositionGraph
import MediaIO
import MediaTime
import TestSupport
import Testing
@testable import RenderEngine

/// The bridge from MediaIO's reader to the compositor, on real files made with ffmpeg.
@Suite struct MediaBridgeTests {
    /// 320x180 BT.709 HD colour bars, 2 s at 25 fps (lossless), with a 44.1 kHz mono tone.
    static func bars() throws -> String {
        try MediaFactory.file("render-bars-709.mp4", ["-f", "lavfi", "-i", "smptehdbars=size=320x180:rate=25:duration=2",
                                                      "-f", "lavfi", "-i", "sine=frequency=660:sample_rate=44100:duration=2",
                                                      "-c:v", "libx264", "-qp", "0", "-pix_fmt", "yuv420p", "-c:a", "aac",
                                                      "-colorspace", "bt709", "-color_primaries", "bt709", "-color_trc", "bt709",
                                                      "-color_range", "tv"])
    }

    @Test func aSourceAtTheOutputFormatAndSizeIsLentWithoutConversion() throws {
        let source = try MediaIOVideoSource(path: Self.bars(), decoderThreads: 1)
        let a = try source.yuvFrame(at: seconds(1, 2), width: 320, height: 180)
        #expect(a.planeOwner is VideoFrame && a.width == 320)
        let again = try source.yuvFrame(at: seconds(1, 2) + seconds(1, 100), width: 320, height: 180)
        #expect(again === a)
    }

    /// Columns of row `y` where the native frame is flat over ±8 pixels (inside a bar).
    static func flatColumns(_ frame: YUVFrame, y: Int) -> [Int] {
        stride(from: 8, to: frame.width - 8, by: 4).filter { x in
            (0..<3).allSatisfy { plane in
                let s = plane == 0 ? 0 : 1
                let v = frame.sample(plane: plane, x: x >> s, y: y >> s)
                return (-8...8).allSatisfy { frame.sample(plane: plane, x: (x + $0) >> s, y: y >> s) == v }
            }
        }
    }

    @Test func scaledPicturesKeepTheBarsColours() throws {
        let path = try Self.bars()
        let native = try MediaIOVideoSource(path: path, decoderThreads: 1).yuvFrame(at: .zero, width: 320, height: 180)
        let scaled = try MediaIOVideoSource(path: path, decoderThreads: 1).yuvFrame(at: .zero, width: 640, height: 360)
        #expect(scaled.width == 640 && scaled.planeOwner !== native.planeOwner)
        let columns = Self.flatColumns(native, y: 40)
        #expect(columns.count > 20)
        for x in columns {
            for plane in 0..<3 {
                let s = plane == 0 ? 0 : 1
                let a = Int(native.sample(plane: plane, x: x >> s, y: 40 >> s))
                let b = Int(scaled.sample(plane: plane, x: (2 * x) >> s, y: 80 >> s))
                #expect(abs(a - b) <= 1, "x \(x) plane \(plane): \(a) vs \(b)")
            }
        }
    }

    @Test func rgbaPicturesAreFullRangeBT709() throws {
        let path = try Self.bars()
        let native = try MediaIOVideoSource(path: path, decoderThreads: 1).yuvFrame(at: .zero, width: 320, height: 180)
        let image = try MediaIOVideoSource(path: path, decoderThreads: 1).rgbaFrame(at: .zero, width: 320, height: 180)
        for x in Self.flatColumns(native, y: 40) {
            let y = (Double(native.sample(plane: 0, x: x, y: 40)) - 16) / 219
            let cb = (Double(native.sample(plane: 1, x: x / 2, y: 20)) - 128) / 224
            let cr = (Double(native.sample(plane: 2, x: x / 2, y: 20)) - 128) / 224
            let r = y + 1.5748 * cr, g = y - 0.1873 * cb - 0.4681 * cr, b = y + 1.8556 * cb
            let p = image.pixel(x: x, y: 40)
            for (got, want) in [(p.r, r), (p.g, g), (p.b, b)] {
                #expect(abs(Double(got) - min(max(want, 0), 1) * 255) <= 2.5, "x \(x): \(p) vs \((r * 255, g * 255, b * 255))")
            }
            #expect(p.a == 255)
        }
    }
}
