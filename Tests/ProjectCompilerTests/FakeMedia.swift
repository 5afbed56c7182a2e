import CompositionGraph
import Foundation
import MediaTime
import ProjectCompiler
import TestSupport

/// Media facts by file name, as the promo media have them, without reading any file.
struct FakeMedia: MediaFactsProvider {
    var files: [String: MediaFacts] = [
        "A.mp4": .fake(.video, size: PixelSize(width: 1920, height: 1080), duration: MediaTime(seconds: 12)),
        "B.mp4": .fake(.video, size: PixelSize(width: 1280, height: 720), duration: MediaTime(seconds: 12)),
        "logo.png": .fake(.image, size: PixelSize(width: 480, height: 160), hasAlpha: true),
        "music.mp3": .fake(.audio, duration: MediaTime(seconds: 22)),
        "star.svg": .fake(.svg, size: PixelSize(width: 100, height: 100)),
        "title-matte.svg": .fake(.svg, size: PixelSize(width: 640, height: 360)),
        "presenter.svg": .fake(.svg, size: PixelSize(width: 480, height: 640)),
        "silent.mp4": .fake(.video, size: PixelSize(width: 640, height: 360), duration: MediaTime(seconds: 5), hasAudio: false),
        "shot%04d.png": .fake(.video, size: PixelSize(width: 640, height: 360), duration: MediaTime(seconds: 2), hasAudio: false),
    ]

    func facts(forFileAt path: String, sequenceRate: Rational?) throws(MediaFactsError) -> MediaFacts {
        let name = URL(fileURLWithPath: path).lastPathComponent
        if name == "unreadable.mp4" { throw .unreadable(path: path, reason: "not a media file") }
        guard let f = files[name] else { throw .missing(path: path) }
        return f
    }
}

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
/// `FakeMedia` knows its facts.
struct FakeRemoteMedia: RemoteMediaLocator {
    func localCopy(of url: String) throws(RemoteMediaFailure) -> String {
        "/media-cache/" + (URL(string: url)?.lastPathComponent ?? url)
    }
}
