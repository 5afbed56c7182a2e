import Foundation
import MediaIO
import MediaTime
import Testing
import TestSupport

@Suite struct OrientationAndStillTests {
    static func rotated() throws -> String {
        let source = try NumberedClip.all.first { $0.name == "n30.mp4" }!.make()
        return try MediaFactory.file("rotated.mp4", ["-i", source, "-c", "copy", "-metadata:s:v:0", "rotate=90"])
    }

    /// ffmpeg 5.1 turns `rotate=90` into a display matrix of 90° counter-clockwise (ffprobe
    /// `rotation: 90`); its players and `-autorotate` then turn the picture 270° clockwise.
    @Test func rotationComesFromTheDisplayMatrix() throws {
        let path = try Self.rotated()
        let json = try MediaFactory.ffprobe(path, ["-select_streams", "v:0", "-show_streams"])
        let sideData = ((json["streams"] as! [[String: Any]])[0]["side_data_list"] as! [[String: Any]])[0]
        let counterclockwise = sideData["rotation"] as! Int
        let video = try MediaProbe.probe(path: path).video!.video!
        #expect(video.rotation == Double((360 - counterclockwise) % 360))
        #expect(video.quarterTurns == ((360 - counterclockwise) % 360) / 90)
        #expect(video.width == 160 && video.height == 120 && video.displayWidth == 120 && video.displayHeight == 160)
    }

    @Test func displayOrientationMatchesFFmpegAutorotateExactly() throws {
        let path = try Self.rotated()
        // ffmpeg's own rotation (transpose filter, exact) of frame 10, as raw yuv420p.
        let expectedPath = MediaFactory.path("rotated-frame10.yuv")
        try MediaFactory.ffmpeg(["-i", path, "-vf", "select=eq(n\\,10)", "-frames:v", "1", "-f", "rawvideo", "-pix_fmt", "yuv420p", expectedPath])
        let expected = try Data(contentsOf: URL(fileURLWithPath: expectedPath))
        let frame = try VideoReader(path: path, options: .init(orientation: .display)).frame(at: MediaTime(10, 30))
        #expect(frame.width == 120 && frame.height == 160)
        var ours = Data()
        frame.withPlanes { planes in
            for plane in planes {
                for y in 0..<plane.height { ours.append(Data(bytes: plane.baseAddress + y * plane.bytesPerRow, count: plane.width)) }
            }
        }
        #expect(ours == expected)
        // The coded orientation still shows the number.
        let coded = try VideoReader(path: path, options: .init(pixelFormat: .yuv420p)).frame(at: MediaTime(10, 30))
        #expect(FrameNumberPattern.number(in: coded) == 10)
    }

    @Test func quarterTurnsComposeBackToTheOriginal() throws {
        let path = try NumberedClip.all.first { $0.name == "n444.mp4" }!.make()
        let frame = try VideoReader(path: path, options: .init(pixelFormat: .rgba)).frame(at: MediaTime(1, 2))
        let once = try frame.rotated(quarterTurns: 1)
        #expect(once.width == frame.height && once.height == frame.width)
        let back = try once.rotated(quarterTurns: 3)
        let half = try (try frame.rotated(quarterTurns: 2)).rotated(quarterTurns: -2)
        for candidate in [back, half] {
            candidate.withPlanes { a in
                frame.withPlanes { b in
                    for y in 0..<b[0].height {
                        #expect(memcmp(a[0].baseAddress + y * a[0].bytesPerRow, b[0].baseAddress + y * b[0].bytesPerRow, 4 * b[0].width) == 0)
                    }
                }
            }
        }
        // Top-left goes to top-right when turning clockwise.
        let topLeft = frame.plane(0).baseAddress.load(as: UInt32.self)
        let turned = once.plane(0)
        #expect((turned.baseAddress + 4 * (turned.width - 1)).load(as: UInt32.self) == topLeft)
    }

    @Test(arguments: ["alpha.png", "photo.jpg", "picture.webp"])
    func stillImagesLastForever(_ name: String) throws {
        let path = try MediaRecipe.probed.first { $0.name == name }!.make()
        let reader = try VideoReader(path: path, options: .init(pixelFormat: .rgba))
        #expect(reader.info.isStillImage)
        let first = try reader.frame(at: .zero)
        for t in [MediaTime(1, 1), MediaTime(3600, 1), MediaTime(1, 3), .zero] {
            let frame = try reader.frame(at: t)
            #expect(frame === first) // the same converted picture, no new decoding
        }
        #expect(first.width == 64 && first.height == 48 && first.pixelFormat == .rgba)
    }

    /// Photos of ordinary sizes: image2 reads a single file's picture once and cannot rewind
    /// it, so the probe inside the reader must not use it up (tiny files hid this).
    @Test(arguments: ["photo-800x600.jpg", "photo-1024x768-progressive.jpg", "photo-1919x1081.png", "photo-1280x720.webp"])
    func photosOfOrdinarySizesDecode(_ name: String) throws {
        let path = try StillFiles.photo(name)
        let reader = try VideoReader(path: path, options: .init(pixelFormat: .rgb24))
        #expect(reader.info.isStillImage)
        let frame = try reader.frame(at: .zero)
        #expect(frame.width == reader.info.video?.video?.width && frame.height == reader.info.video?.video?.height)
        #expect(frame.width > 640)
        #expect(try reader.frame(at: MediaTime(5, 1)) === frame)
    }

    @Test func alphaIsStraightUnlessPremultipliedIsAsked() throws {
        let path = try MediaRecipe.probed.first { $0.name == "alpha.png" }!.make()
        let straight = try VideoReader(path: path, options: .init(pixelFormat: .rgba)).frame(at: .zero)
        let premultiplied = try VideoReader(path: path, options: .init(pixelFormat: .bgra, premultipliedAlpha: true)).frame(at: .zero)
        let s = straight.plane(0).baseAddress.assumingMemoryBound(to: UInt8.self)
        let p = premultiplied.plane(0).baseAddress.assumingMemoryBound(to: UInt8.self)
        let alpha = s[3] // red@0.5 is stored as 127
        #expect([s[0], s[1], s[2]] == [255, 0, 0] && alpha == 127)
        #expect([p[0], p[1], p[2], p[3]] == [0, 0, UInt8((255 * Int(alpha) + 127) / 255), alpha]) // B G R A
    }

    /// The same YUV values mean different colours under BT.601 and BT.709; RGB output honours the tag.
    @Test(arguments: [("bt709", [Int](arrayLiteral: 255, 0, 0)), ("bt470bg", [255, 0, 0])])
    func colourMatrixIsHonoured(_ matrix: String, _ expectedRGB: [Int]) throws {
        let path = try MediaFactory.file("red-\(matrix).mkv", ["-f", "lavfi", "-i", "color=c=red:s=64x64:r=25:d=0.2",
            "-vf", "scale=out_color_matrix=\(matrix == "bt709" ? "bt709" : "bt601"):out_range=tv",
            "-c:v", "libx264", "-qp", "0", "-pix_fmt", "yuv444p", "-colorspace", matrix, "-color_range", "tv"])
        let frame = try VideoReader(path: path, options: .init(pixelFormat: .rgba)).frame(at: .zero)
        let p = frame.plane(0).baseAddress.assumingMemoryBound(to: UInt8.self) + 32 * frame.plane(0).bytesPerRow + 4 * 32
        for c in 0..<3 { #expect(abs(Int(p[c]) - expectedRGB[c]) <= 3, "\(matrix): \(p[0]),\(p[1]),\(p[2])") }
        // The frame carries the matrix it was tagged with (read under the other one, red is visibly off).
        let yuv = try VideoReader(path: path).frame(at: .zero)
        #expect(yuv.colorSpace == ColorSpace(matrix == "bt709" ? .bt709 : .bt601, .limited))
    }
}

@Suite struct VideoFrameConverterTests {
    @Test func oneConverterServesChangingSizesAndFormats() throws {
        let path = try NumberedClip.all.first { $0.name == "n25.mp4" }!.make()
        let reader = try VideoReader(path: path)
        let converter = VideoFrameConverter()
        for (n, size) in [(3, (320, 240)), (4, (100, 76)), (5, (320, 240))] {
            let source = try reader.frame(at: MediaTime(Int64(n), 25))
            let target = try VideoFramePool(width: size.0, height: size.1, pixelFormat: .yuv420p).makeFrame()
            try converter.convert(source, into: target)
            #expect(FrameNumberPattern.number(in: target) == n)
        }
        let rgba = try VideoFramePool(width: 80, height: 60, pixelFormat: .rgba).makeFrame()
        try converter.convert(try reader.frame(at: MediaTime(7, 25)), into: rgba)
        // Block 0 (top left) is white for odd numbers: full-range RGB near 255.
        let p = rgba.plane(0).baseAddress.assumingMemoryBound(to: UInt8.self) + 8 * rgba.plane(0).bytesPerRow + 4 * 8
        #expect(p[0] > 230 && p[1] > 230 && p[2] > 230 && p[3] == 255)
    }
}
