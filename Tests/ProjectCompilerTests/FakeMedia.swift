import CompositionGraph
import Foundation
import MediaTime
import ProjectCompiler
import TestSupport

/// Fonts as a small fixed catalogue.
struct FakeFonts: FontResolver {
    let families = ["DejaVu Sans", "DejaVu Sans Mono", "Noto Sans CJK SC"]

    func register(fontFiles: [String]) -> [(file: String, problem: FontFileProblem)] {
        fontFiles.filter { !FileManager.default.fileExists(atPath: $0) }.map { ($0, .missing) }
    }

    func resolve(family: String, weight: Int, italic: Bool) -> FontResolution {
        families.contains(family) ? .file("/fonts/\(family.replacingOccurrences(of: " ", with: "")).ttf") : .unavailable(available: families)
    }

    /// No layout here: caption lines break only at the cues' own line breaks.
    func captionLines(of text: String, style: TextStyle, width: Double) -> [Range<Int>]? { nil }
}

/// Remote media as if fetched: a URL's local copy is `/media-cache/` and its file name, so
/// `FakeMediaFacts.promo` knows its facts.
struct FakeRemoteMedia: RemoteMediaLocator {
    func localCopy(of url: String) throws(RemoteMediaFailure) -> String {
        "/media-cache/" + (URL(string: url)?.lastPathComponent ?? url)
    }
}
