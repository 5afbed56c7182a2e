import CompositionGraph
import FileSafety
import Foundation
import MediaTime
import Testing
import TestSupport

/// The rule on real files in a scratch folder: `media/A.mp4` and `fonts/Brand.ttf` are inputs,
/// `linked` is a symlink to the `media` folder.
@Suite struct OutputSafetyTests {
    let dir: String
    let a: String
    let font: String
    let safety: OutputSafety

    init() throws {
        dir = FileManager.default.temporaryDirectory.appendingPathComponent("reel-safety-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: dir + "/media", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: dir + "/fonts", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: dir + "/out", withIntermediateDirectories: true)
        a = dir + "/media/A.mp4"
        font = dir + "/fonts/Brand.ttf"
        try Data("footage".utf8).write(to: URL(fileURLWithPath: a))
        try Data("font".utf8).write(to: URL(fileURLWithPath: font))
        try FileManager.default.createSymbolicLink(atPath: dir + "/linked", withDestinationPath: dir + "/media")
        safety = OutputSafety(reading: [ReadFile(path: a, role: "the project's video 'intro'"),
                                        ReadFile(path: font, role: "a font file in the project's fonts:"),
                                        ReadFile(path: a, role: "a second role for the same file")])
    }

    func cleanUp() { try? FileManager.default.removeItem(atPath: dir) }

    @Test func theSamePathIsRefusedNamingTheInputAndItsRole() throws {
        defer { cleanUp() }
        let refusal = try #require(safety.check(a))
        #expect(refusal.reason == .input(ReadFile(path: a, role: "the project's video 'intro'"), .samePath))
        #expect(refusal.description == "will not write \(a): it is \(a), the project's video 'intro'; "
                + "writing it would destroy what is being read. Choose another output file")
        #expect(safety.check(font)?.reason == .input(ReadFile(path: font, role: "a font file in the project's fonts:"), .samePath))
    }

    @Test func aSymlinkToAnInputIsRefused() throws {
        defer { cleanUp() }
        let link = dir + "/out/render.mp4"
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: a)
        let refusal = try #require(safety.check(link))
        #expect(refusal.reason == .input(ReadFile(path: a, role: "the project's video 'intro'"), .symlink))
        #expect(refusal.message.contains(link) && refusal.message.contains(a) && refusal.message.contains("the project's video 'intro'"))
    }

    @Test func anInputThatIsASymlinkIsSeenThroughToo() throws {
        defer { cleanUp() }
        // The project reads media/B.mp4, a symlink to the footage in store/; writing the footage itself is refused.
        try FileManager.default.createDirectory(atPath: dir + "/store", withIntermediateDirectories: true)
        try Data("b".utf8).write(to: URL(fileURLWithPath: dir + "/store/B.mp4"))
        try FileManager.default.createSymbolicLink(atPath: dir + "/media/B.mp4", withDestinationPath: dir + "/store/B.mp4")
        let reading = OutputSafety(reading: [ReadFile(path: dir + "/media/B.mp4", role: "the project's video 'b'")])
        #expect(reading.check(dir + "/store/B.mp4")?.reason == .input(ReadFile(path: dir + "/media/B.mp4", role: "the project's video 'b'"), .symlink))
    }

    @Test func aHardLinkToAnInputIsRefused() throws {
        defer { cleanUp() }
        let link = dir + "/out/render.mp4"
        #expect(Glibc.link(a, link) == 0)
        let refusal = try #require(safety.check(link))
        #expect(refusal.reason == .input(ReadFile(path: a, role: "the project's video 'intro'"), .hardLink))
        #expect(refusal.message.contains("hard link to \(a)"))
    }

    @Test func dotDotAndLinkedFoldersAreSeenThrough() throws {
        defer { cleanUp() }
        #expect(safety.check(dir + "/out/../media/A.mp4")?.reason == .input(ReadFile(path: a, role: "the project's video 'intro'"), .samePath))
        #expect(safety.check(dir + "/linked/A.mp4")?.reason == .input(ReadFile(path: a, role: "the project's video 'intro'"), .otherPath))
        // `..` after a linked folder climbs from where the link leads (the kernel's rule), not lexically.
        #expect(safety.check(dir + "/linked/../media/A.mp4") != nil)
        #expect(safety.check(dir + "/linked/../fonts/Brand.ttf") != nil)
        // A relative path, from the current folder (not changed: tests run in parallel).
        let up = String(repeating: "../", count: FileManager.default.currentDirectoryPath.split(separator: "/").count)
        let relative = up + String(dir.dropFirst())
        #expect(safety.check(relative + "/out/../media/A.mp4") != nil)
        #expect(safety.check(relative + "/linked/A.mp4") != nil)
        #expect(safety.check(relative + "/out/A.mp4") == nil)
    }

    @Test func otherFilesAndNewFilesBesideTheInputsMayBeWritten() throws {
        defer { cleanUp() }
        #expect(safety.check(dir + "/out/render.mp4") == nil)
        #expect(safety.check(dir + "/media/B.mp4") == nil)
        #expect(safety.check(dir + "/linked/render.mp4") == nil)
        try Data("old render".utf8).write(to: URL(fileURLWithPath: dir + "/out/old.mp4"))
        #expect(safety.check(dir + "/out/old.mp4") == nil)
        #expect(OutputSafety(reading: []).check(a) == nil)
    }

    @Test func filesNotWrittenYetAreComparedWhereTheyWouldLand() throws {
        defer { cleanUp() }
        // Two outputs that do not exist yet, one through the linked folder, one through `..`.
        #expect(OutputSafety.sameFile(dir + "/media/new.mp4", dir + "/linked/new.mp4"))
        #expect(OutputSafety.sameFile(dir + "/media/new.mp4", dir + "/out/../media/./new.mp4"))
        #expect(OutputSafety.sameFile(dir + "/linked/../out/new.mp4", dir + "/out/new.mp4"))
        #expect(OutputSafety.sameFile(dir + "/nowhere/x/../new.mp4", dir + "/nowhere/new.mp4"))
        #expect(!OutputSafety.sameFile(dir + "/media/new.mp4", dir + "/out/new.mp4"))
        #expect(!OutputSafety.sameFile(dir + "/media/new.mp4", dir + "/media/new.mov"))
        // An input not there yet (a file another row of a batch will write) is found the same way.
        let later = OutputSafety(reading: [ReadFile(path: dir + "/media/later.png", role: "row 2's image 'picture'")])
        #expect(later.check(dir + "/linked/later.png")?.reason == .input(ReadFile(path: dir + "/media/later.png", role: "row 2's image 'picture'"), .otherPath))
    }

    @Test func aFolderIsNotAnOutputFile() throws {
        defer { cleanUp() }
        let refusal = try #require(safety.check(dir + "/out", exampleName: "render.mp4"))
        #expect(refusal.reason == .folder)
        #expect(refusal.message == "\(dir)/out is a folder, not a file: name the file to write in it, e.g. \(dir)/out/render.mp4")
        #expect(safety.check(".")?.reason == .folder)
        #expect(safety.check(dir + "/linked")?.reason == .folder)
        #expect(safety.check(dir + "/new-folder/")?.message.hasSuffix("e.g. \(dir)/new-folder/out.mp4") == true)
    }

    @Test func identitiesFollowSymlinksAndHardLinks() throws {
        defer { cleanUp() }
        let identity = try #require(FileIdentity(path: a))
        #expect(FileIdentity(path: dir + "/linked/A.mp4") == identity)
        #expect(Glibc.link(a, dir + "/out/hard.mp4") == 0)
        #expect(FileIdentity(path: dir + "/out/hard.mp4") == identity)
        #expect(FileIdentity(path: font) != identity)
        #expect(FileIdentity(path: dir + "/missing") == nil)
        #expect(FileIdentity.resolvedPath(dir + "/linked/../out/x/../y.mp4").hasSuffix("/out/y.mp4"))
    }
}

@Suite struct GraphReadFilesTests {
    func reference(_ name: String, _ kind: MediaKind) -> MediaReference { .fake(name, path: "/p/\(name)", kind: kind) }

    @Test func everyMediaKindAndFontIsListedWithItsRole() {
        let t = TimeRange(start: .zero, duration: MediaTime(1, 1))
        let segments = [Segment(target: t, content: .media(reference("intro", .video), sourceRange: t)),
                        Segment(target: t, content: .still(reference("card", .image))),
                        Segment(target: t, content: .color(.black)), Segment(target: t, content: nil),
                        Segment(target: t, content: .media(reference("intro", .video), sourceRange: t))]
        let tracks = [CompositionTrack(id: 1, kind: .video, name: "video 1", segments: segments),
                      CompositionTrack(id: 2, kind: .audio, name: "audio 1", segments: [Segment(target: t, content: .media(reference("music", .audio), sourceRange: t))])]
        func overlay(_ content: OverlayContent) -> OverlayLayer {
            OverlayLayer(content: content, timeRange: t, positionX: .constant(0), positionY: .constant(0))
        }
        let style = TextStyle(font: "Brand Sans", size: 40, resolvedFontFile: "/fonts/Brand.ttf")
        let graph = CompositionGraph(
            composition: Composition(duration: t.duration, tracks: tracks),
            videoComposition: VideoComposition(renderSize: PixelSize(width: 16, height: 16), frameDuration: MediaTime(1, 25), background: .black, instructions: []),
            audioMix: AudioMix(tracks: []),
            overlays: [overlay(.image(reference("logo", .image))), overlay(.svg(reference("badge", .svg))),
                       overlay(.text("Spring Sale\nthis week only, everything must go", style)), overlay(.text("no font", TextStyle(font: "X", size: 9)))],
            fonts: ["/fonts/Brand.ttf"], output: .test)
        #expect(graph.readFiles().map(\.role) == [
            "the project's video 'intro'", "the project's image 'card'", "the project's audio 'music'",
            "the project's image 'logo'", "the project's SVG 'badge'",
            "a font file in the project's fonts:", "the font of the project's text 'Spring Sale this week only, e…' (Brand Sans)",
        ])
        #expect(graph.readFiles().map(\.path) == ["/p/intro", "/p/card", "/p/music", "/p/logo", "/p/badge", "/fonts/Brand.ttf", "/fonts/Brand.ttf"])
        #expect(graph.readFiles(reader: "row 3's").first?.role == "row 3's video 'intro'")
    }
}
