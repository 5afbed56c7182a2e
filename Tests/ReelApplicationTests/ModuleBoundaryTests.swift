import Foundation
import Testing

/// The boundaries the README's module table states, read from the sources: the graph holds
/// values only, the application layer writes nothing to the terminal, the preview imports the
/// render engine only for its own pictures, and libcurl is set up in one place.
@Suite struct ModuleBoundaryTests {
    static let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Sources")

    /// Each Swift file of a module (by its path under the module's folder) with its text.
    static func files(of module: String) throws -> [(path: String, text: String)] {
        let folder = sources.appendingPathComponent(module)
        let paths = try FileManager.default.subpathsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".swift") }.sorted()
        return try paths.map { ($0, try String(contentsOf: folder.appendingPathComponent($0), encoding: .utf8)) }
    }

    /// The files of `module` with a line matching `pattern`.
    static func files(of module: String, matching pattern: String) throws -> [String] {
        let regex = try NSRegularExpression(pattern: pattern, options: [.anchorsMatchLines])
        return try files(of: module).filter { regex.firstMatch(in: $0.text, range: NSRange($0.text.startIndex..., in: $0.text)) != nil }.map(\.path)
    }

    @Test func theGraphReadsNoFileAndHoldsNoPixels() throws {
        #expect(try Self.files(of: "CompositionGraph", matching: #"^import (RegularFiles|LookKernels|LUTFiles)$"#) == [])
        #expect(try Self.files(of: "CompositionGraph", matching: #"\b(stat|fopen|open)\(|FileManager|contentsOf(File)?:"#) == [])
        #expect(try Self.files(of: "Looks", matching: #"^import "#) == [], "the looks' descriptions are values: no module to read or compute with")
    }

    @Test func theApplicationLayerWritesNothingToTheTerminal() throws {
        #expect(try Self.files(of: "ReelApplication", matching: #"FileHandle\.standard(Error|Output)|\bprint\(|fputs\(|STD(ERR|OUT)_FILENO"#) == [])
    }

    @Test func thePreviewImportsTheRenderEngineOnlyForItsOwnPictures() throws {
        // Its stills (FrameGenerator, their readers) and their size; playback is ReelApplication's.
        #expect(try Self.files(of: "PreviewServer", matching: #"^import RenderEngine$"#)
            == ["PreviewConfiguration.swift", "PreviewSession.swift", "StillFrames.swift"])
    }

    @Test func libcurlIsSetUpOnce() throws {
        let setUps = try ["NetworkPolicy", "RemoteMedia", "Webhooks", "RenderService", "ReelApplication"].flatMap { module in
            try Self.files(of: module, matching: #"reel_curl_easy_init\(|REEL_CURLOPT_(ERRORBUFFER|PROTOCOLS_STR)"#).map { "\(module)/\($0)" }
        }
        #expect(setUps == ["NetworkPolicy/CurlTransfer.swift"])
    }
}
