import AtomicFiles
import CompositionGraph
import Foundation
import MediaIO
import MediaTime
import RenderEngine
import TimelinePage

/// The timeline as one self-contained web page (`reel graph --html`) with a thumbnail of
/// every clip and the ducking curves.
public enum TimelinePageWithThumbnails {
    /// Writes the page to `path` whole or not at all.
    public static func write(_ graph: CompositionGraph, title: String, to path: String) throws {
        try PartialFile.write(Array(try html(for: graph, title: title).utf8), to: path, sync: false)
    }

    public static func html(for graph: CompositionGraph, title: String) throws -> String {
        // A first pass only collects the pictures the page shows, so they can be made file by
        // file in time order: each decoder then reads forward instead of seeking back and forth.
        var wanted: [(MediaReference, MediaTime)] = []
        _ = TimelinePage.html(for: graph, title: title) { wanted.append(($0, $1)); return nil }
        let thumbnails = PageThumbnails()
        for (reference, time) in wanted.sorted(by: { ($0.0.path, $0.1) < ($1.0.path, $1.1) }) { _ = thumbnails.thumbnail(reference, at: time) }
        return TimelinePage.html(for: graph, title: title, ducking: try DuckingCurves.compute(graph), thumbnail: thumbnails.thumbnail)
    }
}

/// The timeline page's thumbnails: a picture `width` pixels wide of each (file, source time),
/// made once; an SVG as itself. A picture that cannot be made leaves its box without one
/// (the project was checked; the page still shows the clip).
private final class PageThumbnails {
    static let width = 192
    private let pictures = SourcePictures()
    private var made: [String: Thumbnail?] = [:]

    func thumbnail(_ reference: MediaReference, at time: MediaTime) -> Thumbnail? {
        let key = "\(time)@\(reference.sourceKey)"
        if let known = made[key] { return known }
        let thumbnail = make(reference, at: time)
        made[key] = thumbnail
        return thumbnail
    }

    private func make(_ reference: MediaReference, at time: MediaTime) -> Thumbnail? {
        switch reference.kind {
        case .audio:
            return nil
        case .svg:
            return (try? Data(contentsOf: URL(fileURLWithPath: reference.path))).map { Thumbnail(mimeType: "image/svg+xml", bytes: Array($0)) }
        case .video, .image:
            guard let natural = reference.facts.naturalSize else { return nil }
            let size = PixelSize(width: Self.width, height: max(1, (Self.width * natural.height + natural.width / 2) / natural.width))
            guard let picture = try? pictures.picture(of: reference, at: time, size: size), let png = try? PNGEncoder.encode(picture) else { return nil }
            return Thumbnail(mimeType: "image/png", bytes: png)
        }
    }
}
