import Foundation
import TestSupport
import Testing

/// `reel graph --html`: the promo's timeline page with real thumbnails.
@Suite struct TimelinePageCommandTests {
    static let folder: URL = MediaFactory.folder("timeline-pages")

    func writePage(_ name: String) throws -> String {
        try #require(promoMediaProblem == nil, "\(promoMediaProblem ?? "")")
        let output = Self.folder.appendingPathComponent(name).path
        let run = try ReelCommand.run(["graph", "Examples/promo/project.yaml", "--html", output])
        #expect(run.status == 0, "\(run.standardError)")
        #expect(run.standardOutput.isEmpty)
        return try String(contentsOfFile: output, encoding: .utf8)
    }

    /// The base64 text of every `data:image/png` URI in `src="…"` attributes after `prefix`.
    func pngURIs(in html: String, after prefix: String) -> [String] {
        html.components(separatedBy: prefix + "data:image/png;base64,").dropFirst().map { String($0.prefix { $0 != "\"" }) }
    }

    @Test func thePromoPageHasAPictureOfEachVideoClipTheTracksAndTheCrossfade() throws {
        let html = try writePage("promo.html")
        let thumbnails = pngURIs(in: html, after: "<img class=\"thumb\" src=\"")
        #expect(thumbnails.count == 2) // intro and broll
        #expect(Set(thumbnails).count == 2)
        for base64 in pngURIs(in: html, after: "src=\"") {
            let bytes = try #require(Data(base64Encoded: base64))
            #expect(Array(bytes.prefix(8)) == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        }
        for name in ["video 1 A", "video 1 B", "audio of video 1 A", "audio of video 1 B", "audio 1"] {
            #expect(html.contains("<b>\(name)</b>"))
        }
        #expect(html.contains("<span class=\"upper\">crossfade ↓</span>"))
        #expect(html.contains("“Spring Sale”"))
        #expect(!html.contains("http:") && !html.contains("https:"))
    }

    @Test func theSameProjectWritesTheSameBytes() throws {
        #expect(try writePage("first.html") == writePage("second.html"))
    }

    @Test func jsonAndHtmlTogetherAreABadCommandLine() throws {
        let run = try ReelCommand.run(["graph", "Examples/promo/project.yaml", "--json", "--html", Self.folder.appendingPathComponent("x.html").path])
        #expect(run.status == 64)
        #expect(run.standardError.contains("--json and --html"))
    }
}
