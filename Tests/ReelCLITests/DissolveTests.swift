import Foundation
import TestSupport
import Testing

/// A crossfade is a dissolve wherever either picture is: A·(1−p) + B·p, also where the incoming
/// picture does not fill the frame (a pillarboxed still, a picture with alpha), so nothing of
/// the outgoing clip shows at full strength until the last frame and then vanishes.
@Suite struct DissolveTests {
    static let folder = MediaFactory.folder("dissolve")

    /// A full-frame red clip, then a 1 s crossfade into a blue 90x90 square contain-fitted in
    /// the 160x90 frame (pillarboxed: columns 35–124). With `alpha`, the square is a PNG with
    /// a transparent 10-pixel border (the general compositing path); without, an opaque PNG
    /// (the Y′CbCr path). Returns the frame 75 % through the crossfade as rgb24.
    static func frameThreeQuartersThrough(alpha: Bool) throws -> [UInt8] {
        let square = alpha
            ? try MediaFactory.file("dissolve-square-alpha.png", ["-f", "lavfi", "-i", "color=c=blue:s=70x70,format=rgba,pad=90:90:10:10:color=black@0",
                                                                   "-frames:v", "1"])
            : try MediaFactory.file("dissolve-square.png", ["-f", "lavfi", "-i", "color=c=blue:s=90x90", "-frames:v", "1"])
        let project = folder.appendingPathComponent("dissolve-\(alpha).yaml").path
        try """
            reel: 1
            output: { size: [160, 90], fps: 20 }
            media: { square: \(square) }
            video:
              - clips:
                  - { color: "#ff0000", duration: 2s }
                  - { transition: crossfade, duration: 1s }
                  - { media: square, duration: 2s, fit: contain }
            """.write(toFile: project, atomically: true, encoding: .utf8)
        let still = folder.appendingPathComponent("dissolve-\(alpha).png").path
        let run = try ReelCommand.run(["frame", project, "--at", "1.75s", "-o", still])
        try #require(run.status == 0, "\(run.standardError)")
        return try StillCommandTests.rgb(still)
    }

    static func pixel(_ rgb: [UInt8], _ x: Int, _ y: Int) -> [Int] { (0..<3).map { Int(rgb[(y * 160 + x) * 3 + $0]) } }

    static func near(_ got: [Int], _ want: [Int]) -> Bool { zip(got, want).allSatisfy { abs($0 - $1) <= 4 } }

    @Test(arguments: [false, true])
    func theOutgoingClipFadesWhereTheIncomingOneIsNot(alpha: Bool) throws {
        let rgb = try Self.frameThreeQuartersThrough(alpha: alpha)
        // Beside the square (and, with alpha, in its transparent border): a quarter of the red
        // over the black background.
        for (x, y) in [(10, 45), (150, 20)] + (alpha ? [(40, 45)] : []) {
            #expect(Self.near(Self.pixel(rgb, x, y), [64, 0, 0]), "\(alpha ? "alpha" : "opaque") (\(x), \(y)): \(Self.pixel(rgb, x, y))")
        }
        // In the square: a quarter of the red and three quarters of the blue.
        #expect(Self.near(Self.pixel(rgb, 80, 45), [64, 0, 191]), "\(alpha ? "alpha" : "opaque") square: \(Self.pixel(rgb, 80, 45))")
    }
}
