import Foundation
@testable import reel
import TestSupport
import Testing

/// docs/coming-from.md's Reel projects are valid as written, against stand-in media of the
/// names they use (its remote URL read from a local file of the same name).
@Suite struct ComingFromDocsTests {
    static let projects: [String] = {
        guard let text = try? String(contentsOf: repositoryRoot.appendingPathComponent("docs/coming-from.md"), encoding: .utf8) else { return [] }
        return text.components(separatedBy: "```yaml\n").dropFirst().map { String($0.components(separatedBy: "```")[0]) }
    }()

    static let media: Result<URL, any Error> = Result(catching: {
        let folder = MediaFactory.folder("coming-from")
        func make(_ name: String, _ arguments: [String]) throws {
            try MediaFactory.ffmpeg(arguments + [folder.appendingPathComponent(name).path])
        }
        try make("a.jpg", ["-f", "lavfi", "-i", "testsrc2=size=320x180", "-frames:v", "1"])
        try make("b.mp4", ["-f", "lavfi", "-i", "testsrc2=size=320x180:rate=25:duration=8", "-f", "lavfi", "-i", "sine=duration=8",
                           "-c:v", "libx264", "-preset", "ultrafast", "-c:a", "aac", "-shortest"])
        try make("music.mp3", ["-f", "lavfi", "-i", "sine=duration=8"])
        try """
            reel: 1
            vars: { title: { type: string, default: Card } }
            output: { size: [320, 180], fps: 30 }
            video:
              - clips: [{ color: "#203040", duration: 5s }]
            overlays: [{ text: "{{ title }}" }]
            """.write(to: folder.appendingPathComponent("card.yaml"), atomically: true, encoding: .utf8)
        return folder
    })

    @Test func thePageHasAnExampleForEachPeer() { #expect(Self.projects.count == 4) }

    @Test(arguments: projects.indices)
    func theExampleIsValid(index: Int) throws {
        let folder = try Self.media.get()
        let path = folder.appendingPathComponent("example-\(index).yaml").path
        try Self.projects[index].replacingOccurrences(of: "\"https://example.com/a.mp4\"", with: "b.mp4")
            .write(toFile: path, atomically: true, encoding: .utf8)
        let report = try Validate.parse([path]).check()
        #expect(report.status == 0, "\(Self.projects[index])\n\(report.errors)")
        #expect(report.output.count == 1)
    }
}
