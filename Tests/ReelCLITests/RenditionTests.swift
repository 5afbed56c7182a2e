import Foundation
import TestSupport
import Testing

/// `renditions:`: one project, several outputs, each with its own size and var values.
@Suite struct RenditionTests {
    /// A 1 s black clip with a 20×20 white square whose horizontal place is a var that each
    /// rendition sets (the tall one keeps the default, the centre).
    static func project(extra: String = "") throws -> (folder: URL, project: String) {
        let folder = MediaFactory.directory.appendingPathComponent("renditions-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let yaml = """
        reel: 1
        vars:
          x: "50%"
        output: { path: out.mp4, size: [320, 180], fps: 25, video: { codec: h264, crf: 10, preset: ultrafast } }
        renditions:
          wide: { vars: { x: "25%" } }
          square: { size: [180, 180], vars: { x: "75%" } }
          tall: { size: [180, 320] }
        \(extra)
        video:
          - clips:
              - color: black
                duration: 1s
        overlays:
          - rect: true
            size: [20, 20]
            position: ["{{ x }}", "50%"]
            fill: "#ffffff"
        """
        let project = folder.appendingPathComponent("project.yaml").path
        try yaml.write(toFile: project, atomically: true, encoding: .utf8)
        return (folder, project)
    }

    /// Where the white square is in frame 0 of `path`: the centre of its white pixels.
    func square(in path: String, width: Int, height: Int) throws -> (x: Int, y: Int) {
        let b = try StillCommandTests.brightBounds(in: path, width: width, height: height)
        guard b[0] >= 0 else { return (-1, -1) }
        return ((b[0] + b[1] + 1) / 2, (b[2] + b[3] + 1) / 2)
    }

    @Test func renderMakesEveryRenditionWithItsOwnSizeAndPlacement() throws {
        let (folder, project) = try Self.project()
        let run = try ReelCommand.run(["render", project, "--progress", "none"])
        #expect(run.status == 0, "\(run.standardError)")
        let file = { (name: String) in folder.appendingPathComponent("out-\(name).mp4").path }
        // The square's centre lands where each rendition's x and size put it.
        let wide = try square(in: file("wide"), width: 320, height: 180)
        #expect(abs(wide.x - 80) <= 1 && abs(wide.y - 90) <= 1, "wide: \(wide)")
        let inSquare = try square(in: file("square"), width: 180, height: 180)
        #expect(abs(inSquare.x - 135) <= 1 && abs(inSquare.y - 90) <= 1, "square: \(inSquare)")
        let tall = try square(in: file("tall"), width: 180, height: 320)
        #expect(abs(tall.x - 90) <= 1 && abs(tall.y - 160) <= 1, "tall: \(tall)")
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("out.mp4").path))
    }

    @Test func oneRenditionAndTheCommandLineWins() throws {
        let (folder, project) = try Self.project()
        let output = folder.appendingPathComponent("one.mp4").path
        let run = try ReelCommand.run(["render", project, "--rendition", "square", "--set", "x=25%", "-o", output, "--progress", "none"])
        #expect(run.status == 0, "\(run.standardError)")
        let placed = try square(in: output, width: 180, height: 180)
        #expect(abs(placed.x - 45) <= 1, "--set x=25% wins over the rendition's 75%: \(placed)")
        let graph = try ReelCommand.run(["graph", project, "--rendition", "tall"])
        #expect(graph.standardOutput.contains("render 180x320"), "\(graph.standardOutput)")
        let validated = try ReelCommand.run(["validate", project])
        #expect(validated.status == 0)
        for name in ["wide", "square", "tall"] { #expect(validated.standardOutput.contains("(rendition \(name)): valid")) }
    }

    @Test func mistakesAreClearErrors() throws {
        let (_, project) = try Self.project()
        let unknown = try ReelCommand.run(["render", project, "--rendition", "squar", "-o", "x.mp4"])
        #expect(unknown.status == 64)
        #expect(unknown.standardError.contains("no rendition 'squar' (it has wide, square, tall); did you mean 'square'?"), "\(unknown.standardError)")
        let (_, clash) = try Self.project(extra: "")
        let sharing = clash.replacingOccurrences(of: "project.yaml", with: "sharing.yaml")
        try String(contentsOfFile: clash, encoding: .utf8)
            .replacingOccurrences(of: "tall: { size: [180, 320] }", with: "tall: { size: [180, 320], path: out-wide.mp4 }")
            .write(toFile: sharing, atomically: true, encoding: .utf8)
        let shared = try ReelCommand.run(["render", sharing])
        #expect(shared.status == 64)
        #expect(shared.standardError.contains("renditions wide and tall would both write"), "\(shared.standardError)")
        let (_, bad) = try Self.project()
        let badSize = bad.replacingOccurrences(of: "project.yaml", with: "bad.yaml")
        try String(contentsOfFile: bad, encoding: .utf8).replacingOccurrences(of: "size: [180, 180]", with: "size: [1, 180]")
            .write(toFile: badSize, atomically: true, encoding: .utf8)
        let invalid = try ReelCommand.run(["validate", badSize])
        #expect(invalid.status == 65)
        #expect(invalid.standardError.contains("bad.yaml:7:20: error: renditions.square.size[0]: must be at least 2, found 1"), "\(invalid.standardError)")
    }
}
