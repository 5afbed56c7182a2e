import Interchange
import ProjectCompiler
import ProjectFile
import TestSupport
import Testing

/// Overlays go to no editing system: each one the project holds, a clip's own included, is
/// named in a warning at its place.
@Suite struct OverlayExportTests {
    @Test func everyOverlayIsNamedAsNotExported() throws {
        let text = """
            reel: 1
            output: { size: [640, 360], fps: 25 }
            media: { a: A.mp4 }
            video:
              - clips:
                  - { media: a, name: Opening, duration: 2s, mute: true, overlays: [{ text: A }, { text: B }] }
                  - { media: a, duration: 2s, mute: true, overlays: [{ text: C }] }
            overlays:
              - { text: Top }
            """
        let document = try DocumentLoader.load(text: text, name: MediaFactory.path("export-overlays.yaml"))
        let loaded = try ProjectPipeline.load(document, media: FakeMediaFacts.promo, fonts: nil)
        let (_, warnings) = try TimelineExport.timeline(loaded.project, layout: loaded.layout)
        let about = warnings.filter { $0.message.contains("overlay") }
        #expect(about.map(\.message) == ["the 2 overlays of clip 'Opening' are not exported: editing systems receive no Reel overlays",
                                         "the overlay of clip 'a' is not exported: editing systems receive no Reel overlays",
                                         "overlay 1 is not exported: editing systems receive no Reel overlays"], "\(warnings)")
        #expect(about.map(\.place.line) == [6, 7, 9])
    }
}
