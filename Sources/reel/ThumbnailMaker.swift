import CompositionGraph
import Foundation
import MediaIO
import MediaTime
import TimelinePage

/// Thumbnails for `reel graph --html`: a video or image file's picture at a source time,
/// `width` pixels wide and upright, as PNG; an SVG file as itself. Each (file, time) is made
/// once and each file opened once. A file that cannot be read gives no thumbnail (the project
/// was validated; the page shows the box without a picture).
final class ThumbnailMaker {
    static let width = 192

    private var readers: [String: VideoReader?] = [:]
    private var made: [String: Thumbnail?] = [:]

    func thumbnail(_ reference: MediaReference, at time: MediaTime) -> Thumbnail? {
        let key = "\(time)@\(reference.path)"
        if let known = made[key] { return known }
        let picture = make(reference, at: time)
        made[key] = picture
        return picture
    }

    /// Makes the thumbnails of `requests` ahead, file by file in time order.
    func prepare(_ requests: [(MediaReference, MediaTime)]) {
        for (reference, time) in requests.sorted(by: { ($0.0.path, $0.1) < ($1.0.path, $1.1) }) {
            _ = thumbnail(reference, at: time)
        }
    }

    private func make(_ reference: MediaReference, at time: MediaTime) -> Thumbnail? {
        switch reference.kind {
        case .audio:
            return nil
        case .svg:
            return (try? Data(contentsOf: URL(fileURLWithPath: reference.path))).map { Thumbnail(mimeType: "image/svg+xml", bytes: Array($0)) }
        case .video, .image:
            guard let reader = reader(reference.path), let frame = try? reader.frame(at: time),
                  let png = try? PNGEncoder.encode(frame) else { return nil }
            return Thumbnail(mimeType: "image/png", bytes: png)
        }
    }

    private func reader(_ path: String) -> VideoReader? {
        if let known = readers[path] { return known }
        let reader = try? Self.openReader(path)
        readers[path] = reader
        return reader
    }

    /// A reader giving RGB frames `width` wide with the upright picture's aspect (RGBA when the
    /// file has alpha, so a logo keeps its transparency).
    private static func openReader(_ path: String) throws -> VideoReader? {
        guard let video = try MediaProbe.probe(path: path).video?.video, video.displayWidth > 0, video.displayHeight > 0 else { return nil }
        let height = max(1, (width * video.displayHeight + video.displayWidth / 2) / video.displayWidth)
        return try VideoReader(path: path, options: .init(pixelFormat: video.hasAlpha ? .rgba : .rgb24, size: (width, height), orientation: .display))
    }
}
