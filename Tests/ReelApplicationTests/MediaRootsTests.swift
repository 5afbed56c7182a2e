import Foundation
import ProjectFile
import ReelApplication
import RemoteMedia
import TestSupport
import Testing

/// A project sent to a service (`Workspace(mediaRoots:)`) reads files inside the media roots
/// only: every path it names, in every field, is looked up there or refused where it is written.
@Suite struct MediaRootsTests {
    /// `root/` and `second/` are the media roots; `outside/` holds the same kinds of file.
    static let folder = MediaFactory.folder("media-roots")
    static var root: String { folder.appendingPathComponent("root").path }
    static var second: String { folder.appendingPathComponent("second").path }
    static var outside: String { folder.appendingPathComponent("outside").path }

    /// The folders' files, made once: a clip, a font, a LUT, a cue file, a nested project and
    /// an image sequence in each of `root` and `outside`; in `root`, a link to the outside clip,
    /// a link to the outside folder and a sequence with one linked frame; in `second`, a clip
    /// only it has and one `root` has too.
    static func layout() throws {
        _ = try MediaFactory.file("media-roots.made") { marker in
            let clip = try WorkspaceTests.clip()
            let frame = try MediaFactory.file("media-roots-frame.png", ["-f", "lavfi", "-i", "color=red:s=16x16", "-frames:v", "1"])
            let files = FileManager.default
            func copy(_ source: String, _ target: String) throws {
                try files.createDirectory(atPath: (target as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
                try files.copyItem(atPath: source, toPath: target)
            }
            let nested = "reel: 1\noutput: { size: [160, 90], fps: 25 }\nmedia: { clip: ../clip.mp4 }\nvideo: [{ clips: [{ media: clip, duration: 0.5s }] }]\n"
            for place in [root, outside] {
                try copy(clip, place + "/clip.mp4")
                try copy(repositoryRoot.appendingPathComponent("Examples/showcase/fonts/DejaVuSansMono-Oblique.ttf").path, place + "/font.ttf")
                try copy(repositoryRoot.appendingPathComponent("Examples/looks/looks/teal.cube").path, place + "/look.cube")
                try copy(repositoryRoot.appendingPathComponent("Examples/captions/talk.vtt").path, place + "/talk.vtt")
                try copy(frame, place + "/seq/f0001.png")
                try copy(frame, place + "/seq/f0002.png")
                try files.createDirectory(atPath: place + "/intro", withIntermediateDirectories: true)
                try nested.write(toFile: place + "/intro/intro.reel.yaml", atomically: true, encoding: .utf8)
            }
            try files.createSymbolicLink(atPath: root + "/link.mp4", withDestinationPath: outside + "/clip.mp4")
            try files.createSymbolicLink(atPath: root + "/escape", withDestinationPath: outside)
            try copy(frame, root + "/badseq/f0001.png")
            try files.createSymbolicLink(atPath: root + "/badseq/f0002.png", withDestinationPath: outside + "/seq/f0001.png")
            try copy(clip, second + "/only-second.mp4")
            try copy(clip, second + "/clip.mp4")
            try files.createDirectory(atPath: second + "/intro", withIntermediateDirectories: true)
            try "reel: 1\noutput: { size: [160, 90], fps: 25 }\nmedia: { clip: /etc/passwd }\nvideo: [{ clips: [{ media: clip }] }]\n"
                .write(toFile: second + "/intro/absolute.reel.yaml", atomically: true, encoding: .utf8)
            try "".write(toFile: marker, atomically: true, encoding: .utf8)
        }
    }

    static func workspace(roots: [String]? = nil) throws -> Workspace {
        try layout()
        return Workspace(remote: RemoteMediaCache(settings: RemoteMediaSettings(folder: folder.appendingPathComponent("media-cache").path, offline: true)),
                         mediaRoots: try MediaRoots(roots ?? [root, second]))
    }

    static func document(_ text: String) throws -> Document {
        try DocumentLoader.load(text: "reel: 1\noutput: { size: [160, 90], fps: 25 }\n" + text, name: "posted.yaml")
    }

    /// The problems of the project `text` (after its `reel` and `output` lines).
    static func diagnostics(_ text: String, vars: VarInputs = VarInputs(), roots: [String]? = nil) throws -> [Diagnostic] {
        let workspace = try workspace(roots: roots)
        let document = try document(text)
        do {
            _ = try workspace.open(document, vars: vars)
            return []
        } catch {
            return error.diagnostics
        }
    }

    /// Each problem as `line:col message`.
    static func problems(_ text: String, vars: VarInputs = VarInputs()) throws -> [String] {
        try diagnostics(text, vars: vars).map { "\($0.location.line):\($0.location.column) \($0.message)" }
    }

    @Test func everyKindOfFileInsideTheRootsOpensAndIsReadThere() throws {
        let loaded = try Self.workspace().open(try Self.document("""
            fonts: [font.ttf]
            media: { clip: clip.mp4, frames: seq/f%04d.png, intro: intro/intro.reel.yaml, other: only-second.mp4 }
            video:
              - clips:
                  - { media: clip, duration: 0.5s, filters: [{ type: lut, file: look.cube }] }
                  - { media: frames }
                  - { media: intro }
                  - { media: other, duration: 0.5s }
            captions: [{ file: talk.vtt }]
            """))
        func real(_ path: String) -> String { URL(fileURLWithPath: path).resolvingSymlinksInPath().path }
        let paths = Set(loaded.layout.media.values.map(\.path))
        #expect(paths == [real(Self.root + "/clip.mp4"), real(Self.root + "/seq/f%04d.png"), real(Self.root + "/intro/intro.reel.yaml"),
                          real(Self.second + "/only-second.mp4")])
        #expect(loaded.graph.fonts == [real(Self.root + "/font.ttf")])
        #expect(loaded.graph.captionFiles == [real(Self.root + "/talk.vtt")])
    }

    @Test func everyFileOutsideTheRootsIsRefusedWhereItIsWritten() throws {
        let problems = try Self.problems("""
            vars:
              shot: { type: path, default: /etc/hosts }
            fonts:
              - ../outside/font.ttf
            media:
              absolute: /etc/passwd
              url: file:///etc/passwd
              up: ../outside/clip.mp4
              link: link.mp4
              through: escape/clip.mp4
              nested: ../outside/intro/intro.reel.yaml
              shot: "{{ shot }}"
              frames: badseq/f%04d.png
            video:
              - clips:
                  - { media: absolute }
                  - { media: url }
                  - { media: up }
                  - { media: link }
                  - { media: through }
                  - { media: nested }
                  - { media: shot }
                  - { media: frames }
                  - { color: black, duration: 1s, filters: [{ type: lut, file: ../outside/look.cube }] }
            captions:
              - file: ../outside/talk.vtt
            """)
        #expect(problems == [
            "6:5 '../outside/font.ttf' leads outside the media roots",
            "8:13 '/etc/passwd' is an absolute path; a project sent here reads only files inside the media roots",
            "9:8 media 'url': 'file://' media cannot be read: Reel fetches only http:// and https:// URLs",
            "10:7 '../outside/clip.mp4' leads outside the media roots",
            "11:9 'link.mp4' leads through a symlink to a file outside the media roots",
            "12:12 'escape/clip.mp4' leads through a symlink to a file outside the media roots",
            "13:11 '../outside/intro/intro.reel.yaml' leads outside the media roots",
            "14:9 '/etc/hosts' is an absolute path; a project sent here reads only files inside the media roots",
            "15:11 'badseq/f%04d.png': its file f0002.png is a symlink to a file outside the media roots",
            "26:68 '../outside/look.cube' leads outside the media roots",
            "28:11 '../outside/talk.vtt' leads outside the media roots",
        ], "\(problems)")
    }

    @Test func anAbsolutePathIntoARootOrAURLWhereAFileIsNeededIsRefused() throws {
        let diagnostics = try Self.diagnostics("""
            fonts: [file:///etc/passwd, \(Self.root)/font.ttf]
            video: [{ clips: [{ color: black, duration: 1s, filters: [{ type: lut, file: "https://example.com/look.cube" }] }] }]
            """)
        let paths = "a project sent here reads only files inside the media roots"
        #expect(diagnostics.map { "\($0.location.line):\($0.location.column) \($0.message) (\($0.hint ?? ""))" } == [
            "3:9 'file:///etc/passwd' is a file: URL; \(paths) (name a file inside a media root, relative to it, or an https URL)",
            "3:29 '\(Self.root)/font.ttf' is an absolute path; \(paths) (name a file inside a media root, relative to it, or an https URL)",
            "4:78 'https://example.com/look.cube' is a URL where a file is needed (name a file inside a media root, relative to it)",
        ])
    }

    @Test func aVarGivenFromOutsideIsRefusedWhereItNamesAFile() throws {
        let given = VarOverride(name: "shot", input: .text("../outside/clip.mp4"), location: .commandLine("shot"))
        let problems = try Self.problems("vars: { shot: { type: path, default: clip.mp4 } }\nmedia: { shot: \"{{ shot }}\" }\nvideo: [{ clips: [{ media: shot }] }]\n",
                                         vars: VarInputs(overrides: [given]))
        #expect(problems == ["4:16 '../outside/clip.mp4' leads outside the media roots"])
    }

    @Test func aNestedProjectReadsInsideTheRootsToo() throws {
        let diagnostics = try Self.diagnostics("media: { intro: intro/absolute.reel.yaml }\nvideo: [{ clips: [{ media: intro }] }]\n")
        #expect(diagnostics.map { "\(($0.location.file as NSString).lastPathComponent):\($0.location.line):\($0.location.column)" } == ["absolute.reel.yaml:3:16"])
        #expect(diagnostics.first?.message == "in nested project posted.yaml → absolute.reel.yaml: '/etc/passwd' is an absolute path; a project sent here reads only files inside the media roots")
    }

    @Test func aFileInNoRootIsMissingAndAURLIsFetched() throws {
        let problems = try Self.problems("media: { gone: gone.mp4, remote: \"https://example.invalid/clip.mp4\" }\nvideo: [{ clips: [{ media: gone }, { media: remote }] }]\n")
        #expect(problems.count == 2 && problems[0].hasPrefix("3:16 media file 'gone' not found: \(URL(fileURLWithPath: Self.root).resolvingSymlinksInPath().path)/gone.mp4"), "\(problems)")
        #expect(problems.last?.hasPrefix("3:34 media 'remote' cannot be fetched") == true, "\(problems)")
    }

    @Test func withoutMediaRootsAProjectReadsAnyFile() throws {
        try Self.layout()
        let workspace = Workspace(remote: RemoteMediaCache(settings: RemoteMediaSettings(folder: Self.folder.appendingPathComponent("media-cache").path, offline: true)))
        let loaded = try workspace.open(try Self.document("media: { clip: \(Self.outside)/clip.mp4 }\nvideo: [{ clips: [{ media: clip }] }]\n"))
        #expect(loaded.layout.media["clip"]?.path == Self.outside + "/clip.mp4")
    }

    @Test func aRootMustBeAFolderOneIsTheMediaRootAndWithNoneOnlyURLsAreRead() throws {
        let nowhere = Self.folder.appendingPathComponent("nowhere").path
        let error = #expect(throws: MediaRootError.self) { try MediaRoots([nowhere]) }
        #expect(error?.description == "the media root \(nowhere) is not a folder")
        #expect(try Self.diagnostics("fonts: [/etc/passwd]\n", roots: [Self.root]).map(\.hint) == ["name a file inside the media root, relative to it, or an https URL"])
        #expect(try Self.diagnostics("fonts: [font.ttf]\n", roots: []).map { "\($0.message) (\($0.hint ?? ""))" }
                == ["'font.ttf' names a file, and this server has no media root to read it from (name an https URL)"])
    }
}
