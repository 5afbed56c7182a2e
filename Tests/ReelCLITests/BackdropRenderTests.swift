import Foundation
import TestSupport
import Testing

/// `backdrop:` fills the frame around a contain-fitted clip: beside a green 40x90 picture in a
/// 160x90 frame, the blurred picture itself (green), a colour, or an image, where without one
/// the background (black) shows.
@Suite struct BackdropRenderTests {
    static let folder = MediaFactory.folder("backdrop")

    func still(backdrop: String?) throws -> [UInt8] {
        let tall = try MediaFactory.file("backdrop-tall.png", ["-f", "lavfi", "-i", "color=c=0x00c000:s=40x90", "-frames:v", "1"])
        let plate = try MediaFactory.file("backdrop-plate.png", ["-f", "lavfi", "-i", "color=c=0x8000ff:s=64x36", "-frames:v", "1"])
        let name = backdrop.map { $0.replacingOccurrences(of: "#", with: "") } ?? "none"
        let project = Self.folder.appendingPathComponent("backdrop-\(name).yaml").path
        try """
            reel: 1
            output: { size: [160, 90], fps: 10 }
            media: { tall: \(tall), plate: \(plate) }
            video:
              - clips:
                  - { media: tall, duration: 1s\(backdrop.map { ", backdrop: \"\($0)\"" } ?? "") }
            """.write(toFile: project, atomically: true, encoding: .utf8)
        let png = Self.folder.appendingPathComponent("backdrop-\(name).png").path
        let run = try ReelCommand.run(["frame", project, "--at", "0.5s", "-o", png])
        try #require(run.status == 0, "\(run.standardError)")
        return try StillCommandTests.rgb(png)
    }

    func pixel(_ rgb: [UInt8], _ x: Int, _ y: Int) -> [Int] { (0..<3).map { Int(rgb[(y * 160 + x) * 3 + $0]) } }
    func near(_ got: [Int], _ want: [Int], _ tolerance: Int = 4) -> Bool { zip(got, want).allSatisfy { abs($0 - $1) <= tolerance } }

    @Test func withoutABackdropTheBackgroundShows() throws {
        let rgb = try still(backdrop: nil)
        #expect(near(pixel(rgb, 10, 45), [0, 0, 0]), "\(pixel(rgb, 10, 45))")
        #expect(near(pixel(rgb, 80, 45), [0, 192, 0]), "\(pixel(rgb, 80, 45))")
    }

    @Test func blurFillsTheFrameWithThePictureItself() throws {
        let rgb = try still(backdrop: "blur")
        // A flat picture blurred is itself: green edge to edge, the picture unchanged on top.
        for x in [2, 10, 150, 157] { #expect(near(pixel(rgb, x, 45), [0, 192, 0], 8), "x \(x): \(pixel(rgb, x, 45))") }
        #expect(near(pixel(rgb, 80, 45), [0, 192, 0]))
    }

    @Test func aColourOrAnImageFillsTheFrame() throws {
        let coloured = try still(backdrop: "#c03020")
        #expect(near(pixel(coloured, 10, 45), [192, 48, 32]), "\(pixel(coloured, 10, 45))")
        #expect(near(pixel(coloured, 80, 45), [0, 192, 0]))
        let plated = try still(backdrop: "plate")
        #expect(near(pixel(plated, 10, 45), [128, 0, 255], 6), "\(pixel(plated, 10, 45))")
    }
}
