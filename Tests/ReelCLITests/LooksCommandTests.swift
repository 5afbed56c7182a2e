import Foundation
import TestSupport
import Testing

/// Filters end to end: a green screen keyed over another clip, the blurred backdrop, LUT
/// files checked by `reel validate` and keyed by their bytes, filters in `reel graph`.
@Suite(.serialized) struct LooksCommandTests {
    /// A red subject with a greenish fringe (12 px) on pure green with a little noise, and a blue clip.
    static func media() throws -> (green: String, blue: String) {
        let green = try MediaFactory.file("looks-greenscreen.mp4", [
            "-f", "lavfi", "-i", "color=c=0x00ff00:s=320x180:r=25:d=2,format=yuv420p,"
                + "drawbox=x=96:y=36:w=128:h=108:color=0x80C040:t=fill,drawbox=x=108:y=48:w=104:h=84:color=0xE01818:t=fill,"
                + "noise=alls=4:allf=t",
            "-c:v", "libx264", "-qp", "0", "-pix_fmt", "yuv420p"])
        let blue = try MediaFactory.file("looks-blue.mp4", ["-f", "lavfi", "-i", "color=c=0x1030E0:s=320x180:r=25:d=2",
                                                            "-c:v", "libx264", "-qp", "0", "-pix_fmt", "yuv420p"])
        return (green, blue)
    }

    func write(_ yaml: String, _ name: String) throws -> String {
        let path = MediaFactory.path(name)
        try yaml.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    /// The frame at `at` as packed rgb24.
    func frame(_ project: String, at: String = "1s") throws -> [UInt8] {
        let png = MediaFactory.path("looks-frame-\(UUID().uuidString).png")
        defer { try? FileManager.default.removeItem(atPath: png) }
        let run = try ReelCommand.run(["frame", project, "--at", at, "-o", png])
        #expect(run.status == 0, "\(run.standardError)")
        return try StillCommandTests.rgb(png)
    }

    func pixel(_ rgb: [UInt8], _ x: Int, _ y: Int, width: Int) -> (r: Int, g: Int, b: Int) {
        let i = (y * width + x) * 3
        return (Int(rgb[i]), Int(rgb[i + 1]), Int(rgb[i + 2]))
    }

    /// The green screen over the blue clip, keyed with `spill` (nil: not keyed).
    func keyedProject(spill: Double?) throws -> String {
        let (green, blue) = try Self.media()
        let filters = spill.map { "[{ type: chroma_key, color: \"#00ff00\", similarity: 0.15, softness: 0.04, spill: \($0) }]" } ?? "[]"
        return try write("""
            reel: 1
            output: { size: [320, 180], fps: 25 }
            media: { screen: \(green), back: \(blue) }
            video:
              - clips: [{ media: back, duration: 2s }]
              - clips:
                  - media: screen
                    duration: 2s
                    filters: \(filters)
            """, "looks-key-\(spill.map { "\($0)" } ?? "none").yaml")
    }

    @Test func aGreenScreenIsKeyedOverTheClipBelowAndSpillIsTakenOut() throws {
        let source = try frame(keyedProject(spill: nil)), kept = try frame(keyedProject(spill: 0)), suppressed = try frame(keyedProject(spill: 1))
        func close(_ a: (r: Int, g: Int, b: Int), _ b: (r: Int, g: Int, b: Int), within: Int = 3) -> Bool {
            abs(a.r - b.r) <= within && abs(a.g - b.g) <= within && abs(a.b - b.b) <= within
        }
        for (x, y) in [(20, 20), (300, 160), (60, 90), (250, 30)] {
            let p = pixel(kept, x, y, width: 320)
            #expect(close(p, (0x10, 0x30, 0xE0), within: 6), "keyed area shows the blue clip at (\(x), \(y)): \(p)")
            #expect(pixel(source, x, y, width: 320).g > 200, "where the source is green")
        }
        for (x, y) in [(160, 90), (120, 60), (200, 120)] {
            let p = pixel(suppressed, x, y, width: 320), original = pixel(source, x, y, width: 320)
            #expect(original.r > 180 && close(p, original), "the subject keeps its colour at (\(x), \(y)): \(original) → \(p)")
        }
        // The fringe stays (it is far enough from the key) and loses its green to spill suppression.
        for (x, y) in [(102, 90), (160, 41), (218, 100)] {
            let original = pixel(source, x, y, width: 320), before = pixel(kept, x, y, width: 320), after = pixel(suppressed, x, y, width: 320)
            #expect(close(before, original), "the fringe is kept: \(original) → \(before)")
            #expect(before.g - after.g >= 20, "spill 1 takes green out of the fringe at (\(x), \(y)): \(before) → \(after)")
        }
    }

    /// A 9:16 frame of a 16:9 source with sharp bars: the backdrop band above the picture is
    /// smooth with the blur and sharp without, the picture itself is untouched.
    @Test func theBlurredBackdropIsSmoothAndThePictureSharp() throws {
        let bars = try MediaFactory.file("looks-bars.mp4", ["-f", "lavfi", "-i", "smptebars=s=320x180:r=25:d=2",
                                                             "-c:v", "libx264", "-qp", "0", "-pix_fmt", "yuv420p"])
        func project(blur: Int) throws -> String {
            try write("""
                reel: 1
                output: { size: [180, 320], fps: 25 }
                media: { bars: \(bars) }
                video:
                  - filters: [{ type: blur, radius: \(blur) }]
                    clips: [{ media: bars, duration: 2s, fit: cover }]
                  - clips: [{ media: bars, duration: 2s }]
                """, "looks-backdrop-\(blur).yaml")
        }
        let sharp = try frame(project(blur: 0)), blurred = try frame(project(blur: 12))
        /// The largest step of green between neighbours over rows `rows`.
        func steepest(_ rgb: [UInt8], rows: Range<Int>) -> Int {
            rows.flatMap { y in (1..<180).map { x in abs(pixel(rgb, x, y, width: 180).g - pixel(rgb, x - 1, y, width: 180).g) } }.max() ?? 0
        }
        let band = 10..<100 // above the contained picture (rows 109…210)
        #expect(steepest(sharp, rows: band) > 60, "the bars' edges are sharp unblurred: \(steepest(sharp, rows: band))")
        #expect(steepest(blurred, rows: band) <= 12, "and smooth blurred: \(steepest(blurred, rows: band))")
        let picture = 120..<200
        let rowBytes = 540
        var differences: [Int] = []
        for y in picture {
            for x in 0..<rowBytes {
                let index: Int = y * rowBytes + x
                differences.append(abs(Int(sharp[index]) - Int(blurred[index])))
            }
        }
        #expect(differences.max() ?? 0 <= 1, "the picture on top is the same")
    }

    @Test func lutFilesAreCheckedByValidateAndKeyTheSegmentsByTheirBytes() throws {
        let (green, _) = try Self.media()
        let cube = MediaFactory.path("looks-grade.cube")
        let identity = "LUT_3D_SIZE 2\n" + (0..<8).map { i in "\(i & 1) \((i >> 1) & 1) \((i >> 2) & 1)" }.joined(separator: "\n") + "\n"
        try identity.write(toFile: cube, atomically: true, encoding: .utf8)
        let project = try write("""
            reel: 1
            output: { size: [320, 180], fps: 25 }
            media: { screen: \(green) }
            video:
              - clips:
                  - media: screen
                    duration: 2s
                    filters:
                      - { type: lut, file: looks-grade.cube }
            """, "looks-lut.yaml")
        let cache = MediaFactory.path("looks-lut-cache")
        func keys() throws -> [String] {
            let run = try ReelCommand.run(["plan", project, "--json"], environment: ["REEL_CACHE_DIR": cache])
            #expect(run.status == 0, "\(run.standardError)")
            let json = try JSONSerialization.jsonObject(with: Data(run.standardOutput.utf8)) as? [String: Any]
            return (json?["segments"] as? [[String: Any]] ?? []).compactMap { $0["key"] as? String }
        }
        let first = try keys()
        #expect(!first.isEmpty)
        try identity.replacingOccurrences(of: "1 1 1\n", with: "1 1 0.5\n").write(toFile: cube, atomically: true, encoding: .utf8)
        let edited = try keys()
        #expect(edited.count == first.count && Set(edited).isDisjoint(with: first), "an edited LUT changes every key that uses it")
        try identity.write(toFile: cube, atomically: true, encoding: .utf8)
        #expect(try keys() == first, "the same bytes give the same keys")

        try "LUT_3D_SIZE 2\n0 0 0\n1 0 x\n".write(toFile: cube, atomically: true, encoding: .utf8)
        let broken = try ReelCommand.run(["validate", project])
        #expect(broken.status == 65)
        #expect(broken.standardError.contains("looks-lut.yaml:9:") && broken.standardError.contains("looks-grade.cube:3: 'x' is not a number"),
                "\(broken.standardError)")
        try FileManager.default.removeItem(atPath: cube)
        let missing = try ReelCommand.run(["validate", project])
        #expect(missing.status == 66 && missing.standardError.contains("the LUT file \(cube) does not exist"), "\(missing.standardError)")
    }

    @Test func valuesOutOfRangeAreReportedWhereTheyAreWritten() throws {
        let (green, _) = try Self.media()
        func errors(_ filters: String, _ name: String) throws -> String {
            let project = try write("""
                reel: 1
                output: { size: [320, 180], fps: 25 }
                media: { screen: \(green) }
                video:
                  - clips:
                      - media: screen
                        duration: 2s
                        filters:
                \(filters)
                """, name)
            let run = try ReelCommand.run(["validate", project])
            #expect(run.status == 65)
            return run.standardError
        }
        let semantic = try errors("""
                      - type: color
                        temperature: 500
                        brightness: [{ at: 0s, value: 0 }, { at: 1s, value: 2 }]
            """, "looks-ranges.yaml")
        #expect(semantic.contains("looks-ranges.yaml:10:") && semantic.contains("temperature is in kelvin, from 1000 to 40000 (6500 leaves the picture); got 500"), "\(semantic)")
        #expect(semantic.contains("looks-ranges.yaml:11:") && semantic.contains("brightness is from -1 to 1 (0 leaves the picture); got 2.0"), "\(semantic)")
        let schema = try errors("""
                      - { type: blur, radius: -3 }
                      - { type: chroma_key }
                      - { type: sepia }
            """, "looks-schema.yaml")
        #expect(schema.contains("looks-schema.yaml:9:") && schema.contains("radius: must be at least 0, found -3"), "\(schema)")
        #expect(schema.contains("looks-schema.yaml:10:") && schema.contains("missing required key 'color'"), "\(schema)")
        #expect(schema.contains("looks-schema.yaml:11:"), "an unknown type is refused: \(schema)")
    }

    @Test func theGraphListsEachLayersFilters() throws {
        try #require(promoMediaProblem == nil, "\(promoMediaProblem ?? "")")
        let run = try ReelCommand.run(["graph", "Examples/looks/project.yaml"])
        #expect(run.status == 0, "\(run.standardError)")
        #expect(run.standardOutput.contains("filters blur 30, color brightness -0.08 saturation 0.7"), "\(run.standardOutput)")
        #expect(run.standardOutput.contains("filters lut teal.cube intensity 0.8, color temperature"), "\(run.standardOutput)")
        #expect(run.standardOutput.contains("filters chroma_key #00ff00 similarity 0.25 softness 0.1 spill 0.6"), "\(run.standardOutput)")
    }
}
