import CompositionGraph
import Foundation
import ProjectCompiler
import ProjectFile
import TestSupport
import Testing

/// Every example validates, compiles to a graph that keeps its invariants, and lists the
/// same as its snapshot (so any change to compiling shows as a diff).
@Suite struct ExampleTests {
    static let examples = exampleProjects()

    func load(_ url: URL) throws -> ProjectPipeline.Loaded {
        try ProjectPipeline.load(path: url.path, media: FakeMediaFacts.promo, fonts: FakeFonts(), remote: FakeRemoteMedia())
    }

    @Test func thereAreExamples() {
        #expect(Self.examples.count >= 8)
    }

    @Test(arguments: examples)
    func compilesAndKeepsInvariants(example: URL) throws {
        let graph = try load(example).graph
        #expect(graph.checkInvariants() == [])
        #expect(graph.duration.isPositive)
    }

    @Test(arguments: examples)
    func listingMatchesSnapshot(example: URL) throws {
        let graph = try load(example).graph
        let name = example.deletingPathExtension().pathComponents.suffix(2).joined(separator: "-")
        let snapshot = repositoryRoot.appendingPathComponent("Tests/ProjectCompilerTests/Snapshots/\(name).txt")
        let mismatch = snapshotMismatch(graph.listing, path: snapshot)
        #expect(mismatch == nil, "\(mismatch ?? "")")
    }

    static let validFixtures: [URL] = {
        let folder = repositoryRoot.appendingPathComponent("Tests/ProjectFileTests/Fixtures/valid")
        let files = (try? FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: nil)) ?? []
        return files.filter { ["yaml", "json"].contains($0.pathExtension) }.sorted { $0.path < $1.path }
    }()

    @Test(arguments: validFixtures)
    func validFixturesCompileAndKeepInvariants(fixture: URL) throws {
        #expect(try load(fixture).graph.checkInvariants() == [])
    }

    @Test func yamlAndJsonPromoCompileToTheSameGraph() throws {
        let yaml = try load(repositoryRoot.appendingPathComponent("Examples/promo/project.yaml")).graph
        let json = try load(repositoryRoot.appendingPathComponent("Examples/promo-json/project.json")).graph
        #expect(yaml == json)
    }

    @Test func promoTimelineIsTwentySecondsWithACrossfadeFromNineToTen() throws {
        let graph = try load(repositoryRoot.appendingPathComponent("Examples/promo/project.yaml")).graph
        #expect(graph.duration == .init(seconds: 20))
        let vc = graph.videoComposition
        #expect(vc.instructions.map(\.timeRange.start) == [.zero, .init(seconds: 9), .init(seconds: 10)])
        let fade = vc.instructions[1]
        #expect(fade.layers.count == 2)
        // A dissolve, half way at 9.5 s: both layers keep their own opacity.
        #expect(fade.transitions.first?.dissolve?.value(at: .init(19, 2)) == 0.5)
        #expect(fade.layers.allSatisfy { $0.opacity.value(at: .init(19, 2)) == 1 })
        #expect(graph.overlays.count == 2)
        #expect(graph.output.metadata["title"] == "Spring Sale")
        // The music fades in over 1 s at half volume and out over the last 2 s.
        let music = graph.audioMix.tracks.last!.volume
        #expect(music.value(at: .init(1, 2)) == 0.25)
        #expect(music.value(at: .init(seconds: 19)) == 0.25)
    }

    @Test func textFontsResolveToFiles() throws {
        let graph = try load(repositoryRoot.appendingPathComponent("Examples/promo/project.yaml")).graph
        guard case .text(_, let style) = graph.overlays[0].content else {
            Issue.record("the first overlay is not text")
            return
        }
        #expect(style.resolvedFontFile == "/fonts/DejaVuSans.ttf")
    }
}
