import CompositionGraph
import Foundation
import MediaTime
import ProjectCompiler

/// Media facts by file name, as the promo media have them, without reading any file.
struct FakeMedia: MediaFactsProvider {
    var files: [String: MediaFacts] = [
        "A.mp4": MediaFacts(duration: MediaTime(seconds: 12), videoSize: PixelSize(width: 1920, height: 1080), hasVideo: true, hasAudio: true),
        "B.mp4": MediaFacts(duration: MediaTime(seconds: 12), videoSize: PixelSize(width: 1280, height: 720), hasVideo: true, hasAudio: true),
        "logo.png": MediaFacts(duration: nil, videoSize: PixelSize(width: 480, height: 160), hasVideo: true, hasAudio: false),
        "music.mp3": MediaFacts(duration: MediaTime(seconds: 22), videoSize: nil, hasVideo: false, hasAudio: true),
        "star.svg": MediaFacts(duration: nil, videoSize: nil, hasVideo: true, hasAudio: false),
        "silent.mp4": MediaFacts(duration: MediaTime(seconds: 5), videoSize: PixelSize(width: 640, height: 360), hasVideo: true, hasAudio: false),
    ]

    func facts(for reference: MediaReference) throws(MediaFactsError) -> MediaFacts {
        let name = URL(fileURLWithPath: reference.path).lastPathComponent
        if name == "unreadable.mp4" { throw .unreadable(path: reference.path, reason: "not a media file") }
        guard let f = files[name] else { throw .missing(path: reference.path) }
        return f
    }
}

/// Fonts as a small fixed catalogue.
struct FakeFonts: FontResolver {
    let families = ["DejaVu Sans", "DejaVu Sans Mono", "Noto Sans CJK SC"]

    func register(fontFiles: [String]) -> [(file: String, problem: String)] {
        fontFiles.filter { !FileManager.default.fileExists(atPath: $0) }.map { ($0, "font file \($0) does not exist") }
    }

    func resolve(family: String, weight: Int, italic: Bool) -> FontResolution {
        families.contains(family) ? .file("/fonts/\(family.replacingOccurrences(of: " ", with: "")).ttf") : .unavailable(available: families)
    }
}
