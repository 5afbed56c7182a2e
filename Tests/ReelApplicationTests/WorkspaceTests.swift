import ReelApplication
import FileSafety
import Foundation
import ProjectFile
import RemoteMedia
import RenderEngine
import TestSupport
import Testing

/// The application layer in-process, as a front end uses it: open a project (a file, or text
/// as a service receives it) with this machine's media and fonts, prepare renders, and read
/// what went wrong as values.
@Suite struct WorkspaceTests {
    static let folder = MediaFactory.folder("application")

    static func workspace() -> Workspace {
        Workspace(remote: RemoteMediaCache(settings: RemoteMediaSettings(folder: folder.appendingPathComponent("media-cache").path, offline: true)))
    }

    static func clip() throws -> String {
        try MediaFactory.file("application-clip.mp4", ["-f", "lavfi", "-i", "testsrc2=size=160x90:rate=25:duration=2",
                                                        "-f", "lavfi", "-i", "sine=frequency=440:duration=2", "-shortest"])
    }

    static func project(_ name: String, output: String = "", extra: String = "") throws -> (path: String, document: Document) {
        let text = """
            reel: 1
            output: { size: [160, 90], fps: 25\(output) }
            media: { clip: \(try clip()) }
            video: [{ clips: [{ media: clip, duration: 1s }] }]
            \(extra)
            """
        let path = folder.appendingPathComponent(name).path
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return (path, try DocumentLoader.load(path: path))
    }

    func request(_ project: (path: String, document: Document), output: String? = nil, range: String? = nil) -> RenderRequest {
        RenderRequest(projectPath: project.path, document: project.document, vars: VarInputs(), varsFile: nil, output: output, range: range,
                      audioOnly: false, preset: nil, decoderThreads: 1, jobs: 1, partsFolder: nil)
    }

    @Test func aProjectOpensFromItsFileOrFromText() throws {
        let (path, _) = try Self.project("open.yaml")
        let workspace = Self.workspace()
        let fromFile = try workspace.open(path)
        let text = try String(contentsOfFile: path, encoding: .utf8).replacingOccurrences(of: "duration: 1s", with: "duration: 1.5s")
        let fromText = try workspace.open(try DocumentLoader.load(text: text, name: "posted.yaml"))
        #expect(fromFile.graph.duration.seconds == 1)
        #expect(fromText.graph.duration.seconds == 1.5)
        #expect(fromFile.warnings.isEmpty)
    }

    @Test func varsFromOutsideWin() throws {
        let path = try Self.project("vars.yaml", extra: "vars: { length: 1s }\noverlays: [{ text: Hi, duration: \"{{ length }}\" }]\n").path
        let set = VarOverride(name: "length", input: .text("0.5s"), location: .commandLine("a field"))
        let loaded = try Self.workspace().open(path, vars: VarInputs(overrides: [set]))
        #expect(loaded.graph.overlays.first?.timeRange.duration.seconds == 0.5)
    }

    @Test func problemsAreValuesWithTheirPlaceAndATally() throws {
        let error = #expect(throws: ProjectError.self) {
            try Self.workspace().open(try DocumentLoader.load(text: "reel: 1\noutput: { size: [160, 90], fps: thirty }\nmedia: { a: nowhere.mp4 }\nvideo: [{ clips: [{ media: a }, { media: b }] }]\n",
                                                              name: "bad.yaml"))
        }
        let lines = error?.diagnostics.map { "\($0.location.line):\($0.location.column)" } ?? []
        #expect(lines == ["2:33", "3:13", "4:33"], "\(error?.diagnostics.map(\.message) ?? [])")
        let text = ErrorText.message(for: try #require(error))
        #expect(text.hasPrefix("bad.yaml:2:33: error: output.fps"), "\(text)")
        #expect(text.hasSuffix("3 errors"), "\(text)")
    }

    @Test func aRenderWithoutAnOutputOrWithABadRangeSaysSoWithoutNamingAFlag() throws {
        let project = try Self.project("no-output.yaml")
        let workspace = Self.workspace()
        #expect(throws: RenderRequestError.noOutput) { try workspace.prepareRender(request(project), needsOutput: true) }
        #expect(throws: RenderRequestError.self) { try workspace.prepareRender(request(project, output: "out.mp4", range: "2s..9s"), needsOutput: true) }
        let sequence = Self.folder.appendingPathComponent("frames.png").path
        #expect(throws: RenderRequestError.imageSequenceWithoutNumber(path: sequence, suggestion: Self.folder.appendingPathComponent("frames%04d.png").path)) {
            try workspace.prepareRender(request(project, output: sequence), needsOutput: true)
        }
        for error in [RenderRequestError.noOutput, .badRange("the range '2s..9s' ends after the timeline"),
                      .sharedOutput(first: "a", second: "b", path: "x.mp4")] {
            #expect(!error.description.contains("--"), "\(error.description)")
        }
    }

    @Test func aRenderMayNotWriteWhatItReads() throws {
        let project = try Self.project("reads.yaml")
        #expect(throws: OutputRefusal.self) { try Self.workspace().prepareRender(request(project, output: try Self.clip()), needsOutput: true) }
    }

    @Test func everyRenditionGetsItsOwnFileOrTheRequestIsRefused() throws {
        let renditions = try Self.project("renditions.yaml", output: ", path: out.mp4",
                                          extra: "renditions:\n  wide: {}\n  square: { size: [90, 90] }\n")
        let prepared = try Self.workspace().prepareRenders(request(renditions))
        #expect(prepared.map { URL(fileURLWithPath: $0.session.options.outputPath).lastPathComponent } == ["out-wide.mp4", "out-square.mp4"])
        let shared = try Self.project("shared.yaml", output: ", path: out.mp4",
                                      extra: "renditions:\n  a: { path: same.mp4 }\n  b: { path: same.mp4 }\n")
        #expect(throws: RenderRequestError.self) { try Self.workspace().prepareRenders(request(shared)) }
    }
}
