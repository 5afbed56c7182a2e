import Foundation
import InstalledResources
import Testing

struct InstalledResourcesTests {
    /// A fresh folder holding `files` (relative path → contents), removed by the caller.
    func folder(_ files: [String: String]) throws -> URL {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("installed-resources-\(UUID().uuidString)", isDirectory: true)
        for (path, text) in files {
            let file = root.appendingPathComponent(path)
            try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(text.utf8).write(to: file)
        }
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        return root
    }

    /// A bundle that must not be asked: the test fails if it is.
    func unaskedBundle() -> Bundle {
        Issue.record("the bundle was consulted although the installed folder exists")
        return Bundle.main
    }

    @Test func theInstalledFolderWinsAndTheBundleIsNotOpened() throws {
        let share = try folder(["reel.schema.json": "{}", "page/index.html": "<p>"])
        defer { try? FileManager.default.removeItem(at: share) }
        let schema = InstalledResources.url(forResource: "reel.schema", withExtension: "json", installedIn: share, bundle: unaskedBundle())
        #expect(schema?.path == share.appendingPathComponent("reel.schema.json").path)
        let page = InstalledResources.url(forResource: "index", withExtension: "html", subdirectory: "page", installedIn: share, bundle: unaskedBundle())
        #expect(page?.path == share.appendingPathComponent("page/index.html").path)
    }

    /// An installed folder without the file is a broken installation: nil (the caller says which
    /// file is missing), not SwiftPM's bundle, whose absence would stop the process.
    @Test func aFileMissingFromTheInstalledFolderIsNil() throws {
        let share = try folder(["openapi.json": "{}"])
        defer { try? FileManager.default.removeItem(at: share) }
        #expect(InstalledResources.url(forResource: "reel.schema", withExtension: "json", installedIn: share, bundle: unaskedBundle()) == nil)
        #expect(InstalledResources.url(forResource: "index", withExtension: "html", subdirectory: "page", installedIn: share, bundle: unaskedBundle()) == nil)
    }

    @Test func withoutTheInstalledFolderTheBundleIsRead() throws {
        let bundleFolder = try folder(["openapi.json": "{}"])
        defer { try? FileManager.default.removeItem(at: bundleFolder) }
        let bundle = try #require(Bundle(path: bundleFolder.path))
        let absent = bundleFolder.appendingPathComponent("share/reel", isDirectory: true)
        for installed in [absent, nil] {
            let url = InstalledResources.url(forResource: "openapi", withExtension: "json", installedIn: installed, bundle: bundle)
            #expect(url?.resolvingSymlinksInPath().path == bundleFolder.appendingPathComponent("openapi.json").resolvingSymlinksInPath().path)
        }
    }
}
