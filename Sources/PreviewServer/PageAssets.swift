import Foundation
import InstalledResources

/// The page and its script and stylesheet: files of this module's bundle, read once at start
/// and served from memory under fixed names.
struct PageAssets: Sendable {
    struct Asset: Sendable {
        var bytes: [UInt8]
        var contentType: String
    }

    let assets: [String: Asset]

    /// Reads the bundled files; a missing one is a broken installation.
    init() throws {
        var assets: [String: Asset] = [:]
        for (name, type) in [("index.html", "text/html; charset=utf-8"), ("preview.js", "text/javascript; charset=utf-8"),
                             ("preview.css", "text/css; charset=utf-8")] {
            let parts = name.split(separator: ".")
            guard let url = InstalledResources.url(forResource: String(parts[0]), withExtension: String(parts[1]), subdirectory: "page",
                                                   bundle: Bundle.module) else {
                throw CocoaError(.fileNoSuchFile, userInfo: [NSLocalizedDescriptionKey: "the preview page's \(name) is missing from Reel's resources"])
            }
            assets[name] = Asset(bytes: Array(try Data(contentsOf: url)), contentType: type)
        }
        self.assets = assets
    }

    subscript(name: String) -> Asset? { assets[name] }
}
