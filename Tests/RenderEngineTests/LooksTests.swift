import CompositionGraph
import Foundation
@testable import LookKernels
import Looks
import LUTFiles
@testable import RenderEngine
import Testing
import TestSupport

/// The looks' pixel maths: blur against a true Gaussian, the colour adjustments' levels, the
/// LUT against FFmpeg's `lut3d`, the chroma key's alpha and spill.
@Suite struct LooksTests {
    /// A 4:2:0 frame of one colour, with `draw` run on the luma plane.
    func frame(_ width: Int, _ height: Int, _ color: YUVColor, draw: (UnsafeMutablePointer<UInt8>, Int) -> Void = { _, _ in }) -> YUVFrame {
        let f = YUVFrame(width: width, height: height)
        f.fill(color)
        draw(f.y, f.yStride)
        return f
    }

    /// Each look the format describes (module Looks) has its pixels (module LookKernels), in the
    /// same order: a look described without a kernel would stop the render at its first frame.
    @Test func everyLookHasItsKernel() {
        for look in Look.all { #expect(LookKernel.all.contains { $0.look == look }, "\(look.name) has no kernel in LookKernel.all") }
        #expect(LookKernel.all.map(\.look.name) == Look.all.map(\.name))
    }

    @Test func threeBoxesHaveTheVarianceOfTheGaussian() {
        for sigma in [1.0, 2.5, 6, 12, 40, 150] {
            let radii = BoxBlur.radii(sigma: sigma)
            #expect(radii.count == (sigma < 2 ? 1 : 3), "σ \(sigma): \(radii) (boxes of width 1 are left out)")
            // A box of width w has variance (w² − 1) / 12; variances add.
            let variance = radii.map { r in Double((2 * r + 1) * (2 * r + 1) - 1) / 12 }.reduce(0, +)
            #expect(abs(variance.squareRoot() - sigma) < 0.1 * sigma + 0.3, "σ \(sigma): boxes \(radii) give \(variance.squareRoot())")
        }
        #expect(BoxBlur.radii(sigma: 0).isEmpty)
    }

    @Test func aBlurredLineHasTheGaussiansProfileAndKeepsItsEnergy() throws {
        let sigma = 8.0
        let f = frame(256, 64, YUVColor(y: 16, cb: 128, cr: 128)) { y, stride in
            for row in 0..<64 { y[row * stride + 128] = 235 }
        }
        guard case .yuv(let out)? = try LayerLooks.apply([filter(.blur, ["radius": sigma])], at: .zero, to: .yuv(f)) else {
            Issue.record("a blurred Y′CbCr picture stays Y′CbCr"); return
        }
        let row = (0..<256).map { Double(out.sample(plane: 0, x: $0, y: 32)) - 16 }
        let total = row.reduce(0, +)
        // Each of the six passes rounds every sample: a bias of under a level on the line's total per pass.
        #expect(abs(total - 219) <= 12, "the line's energy is kept: \(total)")
        for dx in [0, 4, 8, 16] {
            let gaussian = 219 / (sigma * (2 * Double.pi).squareRoot()) * exp(-Double(dx * dx) / (2 * sigma * sigma))
            #expect(abs(row[128 + dx] - gaussian) <= 1.5, "at \(dx) px: \(row[128 + dx]), a Gaussian has \(gaussian)")
            #expect(row[128 + dx] == row[128 - dx], "symmetric at \(dx) px")
        }
        #expect(row[0] == 0 && row[200] == 0, "far from the line nothing changes")
        // Edges are extended: a flat picture stays flat up to its borders.
        let flat = frame(40, 20, YUVColor(y: 100, cb: 90, cr: 160))
        guard case .yuv(let blurredFlat)? = try LayerLooks.apply([filter(.blur, ["radius": 30])], at: .zero, to: .yuv(flat)) else { return }
        #expect(blurredFlat.packedBytes() == flat.packedBytes())
    }

    @Test func aLargeRadiusStaysBoundedAndDeterministic() throws {
        var random = SplitMix64(seed: 14)
        let f = frame(120, 80, YUVColor(y: 16, cb: 128, cr: 128)) { y, stride in
            for row in 0..<80 { for x in 0..<120 { y[row * stride + x] = UInt8.random(in: 16...235, using: &random) } }
        }
        guard case .yuv(let a)? = try LayerLooks.apply([filter(.blur, ["radius": 900])], at: .zero, to: .yuv(f)),
              case .yuv(let b)? = try LayerLooks.apply([filter(.blur, ["radius": 900])], at: .zero, to: .yuv(f)) else { return }
        #expect(a.packedBytes() == b.packedBytes())
        let lumas = (0..<80).flatMap { y in (0..<120).map { a.sample(plane: 0, x: $0, y: y) } }
        #expect(lumas.max()! - lumas.min()! <= 2, "a radius far beyond the picture leaves nearly its mean everywhere")
    }

    @Test func colorMovesTheLevelsItSays() throws {
        let grey = YUVColor(y: 126, cb: 128, cr: 128), red = YUVColor(y: 63, cb: 102, cr: 240)
        func adjusted(_ c: YUVColor, brightness: Double = 0, contrast: Double = 1, saturation: Double = 1, temperature: Double = 6500) throws -> YUVColor {
            let look = filter(.color, ["brightness": brightness, "contrast": contrast, "saturation": saturation, "temperature": temperature])
            guard case .yuv(let out)? = try LayerLooks.apply([look], at: .zero, to: .yuv(frame(4, 4, c))) else { return c }
            return YUVColor(y: out.sample(plane: 0, x: 1, y: 1), cb: out.sample(plane: 1, x: 0, y: 0), cr: out.sample(plane: 2, x: 0, y: 0))
        }
        #expect(try adjusted(red) == red, "neutral values leave the picture")
        #expect(try adjusted(red, brightness: 0.1) == YUVColor(y: 63 + 22, cb: 102, cr: 240), "0.1 of the 219 levels of luma")
        #expect(try adjusted(red, contrast: 2).y == 1, "twice as far below mid grey (125.5 − 2 × 62.5 = 0.5)")
        #expect(try adjusted(YUVColor(y: 150, cb: 128, cr: 128), contrast: 1.5).y == 162, "125.5 + 1.5 × 24.5 = 162.25")
        #expect(try adjusted(red, saturation: 0) == YUVColor(y: 63, cb: 128, cr: 128))
        #expect(try adjusted(red, saturation: 0.5) == YUVColor(y: 63, cb: 115, cr: 184))
        let warm = try adjusted(grey, temperature: 3000), cool = try adjusted(grey, temperature: 10000)
        #expect(warm.cr > 140 && warm.cb < 110, "3000 K tints grey orange: \(warm)")
        #expect(cool.cb > 135 && cool.cr < 125, "10000 K tints grey blue: \(cool)")
        #expect(abs(Int(warm.y) - 126) <= 2 && abs(Int(cool.y) - 126) <= 2, "the tint keeps luma: \(warm.y), \(cool.y)")
    }

    @Test func cubeFilesAreReadWithTheirKeywordsAndErrorsNameTheLine() throws {
        let lut = try CubeLUT(parsing: """
            # a comment
            TITLE "Identity"
            LUT_3D_SIZE 2
            DOMAIN_MIN 0 0 0
            DOMAIN_MAX 1 1 1
            0 0 0
            1 0 0
            0 1 0
            1 1 0
            0 0 1
            1 0 1
            0 1 1
            1 1 1
            """, path: "id.cube")
        #expect(lut.title == "Identity" && lut.size == 2 && lut.entries.count == 24)
        #expect(lut.entries[3] == 255 * 256, "red changes fastest")
        func failure(_ text: String) -> String {
            do { _ = try CubeLUT(parsing: text, path: "bad.cube"); return "" } catch { return "\(error)" }
        }
        #expect(failure("LUT_3D_SIZE 2\n0 0 0\n0 zero 0\n") == "bad.cube:3: 'zero' is not a number")
        #expect(failure("LUT_3D_SIZE 2\n0 0\n") == "bad.cube:2: a table line needs three numbers (red, green, blue), not 2")
        #expect(failure("LUT_1D_SIZE 1024\n") == "bad.cube:1: a 1D LUT (LUT_1D_SIZE): only 3D LUTs (LUT_3D_SIZE) are supported")
        #expect(failure("LUT_3D_SIZE 2\nLUT_SHAPE 3\n") == "bad.cube:2: unknown keyword 'LUT_SHAPE'")
        #expect(failure("LUT_3D_SIZE 2\n0 0 0\n") == "bad.cube: has 1 table lines, LUT_3D_SIZE 2 needs 8")
        #expect(failure("0 0 0\n") == "bad.cube:1: a table line before LUT_3D_SIZE")
    }

    /// A 17-point teal-and-orange LUT (shadows to teal, highlights to orange, a little contrast).
    static func tealCube(domainMax: Double = 1) -> String {
        var lines = ["TITLE \"teal\"", "LUT_3D_SIZE 17"]
        if domainMax != 1 { lines += ["DOMAIN_MIN 0 0 0", "DOMAIN_MAX \(domainMax) \(domainMax) \(domainMax)"] }
        for b in 0..<17 { for g in 0..<17 { for r in 0..<17 {
            let (x, y, z) = (Double(r) / 16, Double(g) / 16, Double(b) / 16)
            let l = 0.2126 * x + 0.7152 * y + 0.0722 * z
            let s = l * l * (3 - 2 * l)
            let out = [x + 0.12 * (s - 0.5) + 0.05 * (x - l), y + 0.02 * (s - 0.5), z - 0.15 * (s - 0.5) + 0.03 * sin(6 * x)]
            lines.append(out.map { String(format: "%.6f", min(max($0, 0), 1)) }.joined(separator: " "))
        } } }
        return lines.joined(separator: "\n") + "\n"
    }

    /// ffmpeg's lut3d ignores DOMAIN_MIN and reads DOMAIN_MAX only above 1, so the domains
    /// compared are [0, 1] and [0, 2].
    @Test(arguments: [1.0, 2.0]) func theLUTMatchesFFmpegsTetrahedralLut3dWithinOneLevel(domainMax: Double) throws {
        let cube = MediaFactory.path("teal-\(domainMax).cube"), input = MediaFactory.path("lut-input.rgb")
        let output = MediaFactory.path("lut-ffmpeg-\(domainMax).rgb")
        try Self.tealCube(domainMax: domainMax).write(toFile: cube, atomically: true, encoding: .utf8)
        var random = SplitMix64(seed: 3)
        // Every grey level, then random colours.
        var pixels = (0..<256).flatMap { [UInt8($0), UInt8($0), UInt8($0)] }
        pixels += (0..<(256 * 255 * 3)).map { _ in UInt8.random(in: 0...255, using: &random) }
        try Data(pixels).write(to: URL(fileURLWithPath: input))
        try MediaFactory.ffmpeg(["-f", "rawvideo", "-pix_fmt", "rgb24", "-s", "256x256", "-i", input,
                                 "-vf", "lut3d=file=\(cube):interp=tetrahedral", "-f", "rawvideo", "-pix_fmt", "rgb24", output])
        let reference = [UInt8](try Data(contentsOf: URL(fileURLWithPath: output)))
        try #require(reference.count == pixels.count)
        let lut = PreparedLUT(try CubeLUT(contentsOf: cube))
        var worst = 0, changed = 0
        for i in stride(from: 0, to: pixels.count, by: 3) {
            let (r, g, b) = lut.apply(r: Int32(pixels[i]), g: Int32(pixels[i + 1]), b: Int32(pixels[i + 2]), intensity: 256)
            for (mine, theirs) in zip([r, g, b], reference[i..<i + 3]) { worst = max(worst, abs(Int(mine) - Int(theirs))) }
            if (r, g, b) != (Int32(pixels[i]), Int32(pixels[i + 1]), Int32(pixels[i + 2])) { changed += 1 }
        }
        #expect(worst <= 1, "largest difference from ffmpeg lut3d: \(worst) levels")
        #expect(changed > pixels.count / 3 / 2, "the LUT changes most pixels (\(changed))")
        // Half intensity lands halfway.
        let (r, _, _) = lut.apply(r: 200, g: 60, b: 30, intensity: 128)
        let full = lut.apply(r: 200, g: 60, b: 30, intensity: 256).0
        #expect(abs(Int(r) - (200 + Int(full)) / 2) <= 1)
    }

    @Test func theChromaKeyClearsTheKeyKeepsOtherColoursAndTakesSpillOut() throws {
        let green = Color(red: 0, green: 1, blue: 0)
        func keyed(_ rgb: (UInt8, UInt8, UInt8), spill: Double = 0) throws -> (r: UInt8, g: UInt8, b: UInt8, a: UInt8) {
            let image = PremultipliedImage(width: 2, height: 2)
            image.fill((rgb.0, rgb.1, rgb.2, 255))
            let key = filter(.chromaKey, ["similarity": 0.1, "softness": 0.1, "spill": spill], ["color": .color(green)])
            guard case .rgba(let out)? = try LayerLooks.apply([key], at: .zero, to: .rgba(image)) else { return (0, 0, 0, 0) }
            return out.pixel(x: 1, y: 1)
        }
        #expect(try keyed((0, 255, 0)).a == 0, "the key colour is transparent")
        #expect(try keyed((20, 235, 30)).a == 0, "and colours near it")
        let red = try keyed((230, 20, 20), spill: 1)
        #expect(red.a == 255 && abs(Int(red.r) - 230) <= 2 && red.g <= 22, "red is kept as it is: \(red)")
        let fringe = try keyed((128, 192, 64)), suppressed = try keyed((128, 192, 64), spill: 1)
        #expect(fringe.a == 255 && suppressed.a == 255)
        #expect(Int(fringe.g) - Int(suppressed.g) >= 20, "spill takes green out of a greenish fringe: \(fringe) → \(suppressed)")
        let edge = try keyed((60, 200, 60))
        #expect(edge.a > 0 && edge.a < 255, "between similarity and similarity + softness alpha ramps: \(edge)")
    }

    /// Looks compute only the shown part of a picture (a `cover` backdrop is mostly off the
    /// frame), and that part is exactly as when the whole picture is done: a blur reads its
    /// reach around the region, a look before a blur works on what the blur reads.
    @Test func theShownRegionIsExactlyAsInTheWholePicture() throws {
        var random = SplitMix64(seed: 9)
        let (width, height) = (301, 120)
        let frame = YUVFrame(width: width, height: height)
        for plane in 0..<3 {
            let p = frame.plane(plane)
            for i in 0..<(p.stride * (plane == 0 ? height : frame.chromaHeight)) { p.base[i] = UInt8.random(in: 16...235, using: &random) }
        }
        let image = PremultipliedImage(width: width, height: height)
        for i in 0..<(image.stride * height) where i % 4 == 3 { image.pixels[i] = UInt8.random(in: 0...255, using: &random) }
        for i in 0..<(image.stride * height) where i % 4 != 3 { image.pixels[i] = UInt8.random(in: 0...image.pixels[i | 3], using: &random) }
        let chains: [[LayerFilter]] = [
            [filter(.blur, ["radius": 6])],
            [filter(.color, ["brightness": 0.1, "contrast": 1.2, "saturation": 0.5, "temperature": 5000]), filter(.blur, ["radius": 12])],
            [filter(.blur, ["radius": 3]), filter(.blur, ["radius": 20]), filter(.color, ["brightness": -0.1, "temperature": 7000])],
        ]
        let regions = [PictureRegion(x0: 100, y0: 30, x1: 200, y1: 90), PictureRegion(x0: 0, y0: 0, x1: 50, y1: 120),
                       PictureRegion(x0: 250, y0: 100, x1: 301, y1: 120)]
        for looks in chains {
            for region in regions {
                guard case .yuv(let whole)? = try LayerLooks.apply(looks, at: .zero, to: .yuv(frame)),
                      case .yuv(let part)? = try LayerLooks.apply(looks, at: .zero, to: .yuv(frame), within: region),
                      case .rgba(let wholeImage)? = try LayerLooks.apply(looks, at: .zero, to: .rgba(image)),
                      case .rgba(let partImage)? = try LayerLooks.apply(looks, at: .zero, to: .rgba(image), within: region) else {
                    Issue.record("looks keep the picture's kind"); return
                }
                var differing = 0
                for plane in 0..<3 {
                    let r = plane == 0 ? region : region.chroma
                    for y in r.y0..<r.y1 { for x in r.x0..<r.x1 where whole.sample(plane: plane, x: x, y: y) != part.sample(plane: plane, x: x, y: y) { differing += 1 } }
                }
                for y in region.y0..<region.y1 {
                    for i in (4 * region.x0)..<(4 * region.x1) where wholeImage.pixels[y * wholeImage.stride + i] != partImage.pixels[y * partImage.stride + i] {
                        differing += 1
                    }
                }
                #expect(differing == 0, "\(looks.map(\.look.name)) in \(region): \(differing) samples differ")
                // And the part outside is not computed (left blank), which is the point.
                #expect(part.sample(plane: 0, x: region.x0 > 60 ? 0 : width - 1, y: region.y0 > 60 ? 0 : height - 1) == 0)
            }
        }
    }
}
