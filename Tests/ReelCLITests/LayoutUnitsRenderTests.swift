import Foundation
import TestSupport
import Testing

/// Relative units and anchored positions rendered: one design in two cuts, a box sized in
/// `vmin` and placed from the frame's bottom-right corner, found by its pixels where the maths
/// puts it in each.
@Suite struct LayoutUnitsRenderTests {
    @Test func aVminBoxFromTheBottomRightLandsWhereTheMathsSaysInEachCut() throws {
        let folder = MediaFactory.folder("layout-units-\(UUID().uuidString)")
        let backdrop = try MediaFactory.file("layout-backdrop.mp4", ["-f", "lavfi", "-i", "color=c=0x202060:s=320x180:r=25:d=1",
                                                                      "-c:v", "libx264", "-pix_fmt", "yuv420p"])
        let yaml = """
        reel: 1
        output: { path: out.mp4, size: [320, 180], fps: 25, video: { codec: h264, crf: 4, preset: ultrafast } }
        renditions:
          wide: {}
          tall: { size: [180, 320] }
        media: { backdrop: \(backdrop) }
        video:
          - clips: [{ media: backdrop, duration: 1s, fit: cover }]
        overlays:
          - rect: true
            fill: "#ffffff"
            size: ["50vmin", "50vmin"]
            position: { from: bottom-right, offset: ["-8px", "-16px"] }
        """
        let project = folder.appendingPathComponent("project.yaml").path
        try yaml.write(toFile: project, atomically: true, encoding: .utf8)
        let run = try ReelCommand.run(["render", project, "--progress", "none"])
        #expect(run.status == 0, "\(run.standardError)")
        // 50vmin is 90 px in both (the short side is 180); the box's bottom-right corner is
        // 8 px left of and 16 px above the frame's.
        for (name, width, height) in [("wide", 320, 180), ("tall", 180, 320)] {
            let bounds = try StillCommandTests.brightBounds(in: folder.appendingPathComponent("out-\(name).mp4").path, width: width, height: height)
            let expected = [width - 8 - 90, width - 8 - 1, height - 16 - 90, height - 16 - 1]
            #expect(zip(bounds, expected).allSatisfy { abs($0 - $1) <= 1 }, "\(name): bright pixels \(bounds), expected \(expected)")
        }
    }
}

extension StillCommandTests {
    /// The bounds of the bright pixels (red above 128) of frame 0 of `path`: minX, maxX, minY,
    /// maxY (-1 each when there are none).
    static func brightBounds(in path: String, width: Int, height: Int) throws -> [Int] {
        let pixels = try rgb(path, frame: 0)
        #expect(pixels.count == width * height * 3, "\(path) is not \(width)x\(height)")
        var xs: [Int] = [], ys: [Int] = []
        for y in 0..<height {
            for x in 0..<width where pixels[(y * width + x) * 3] > 128 {
                xs.append(x)
                ys.append(y)
            }
        }
        return [xs.min() ?? -1, xs.max() ?? -1, ys.min() ?? -1, ys.max() ?? -1]
    }
}
