import AtomicFiles
import Foundation
import MediaIO
import MediaTime
import RenderEngine

/// Where `reel thumbnails` puts its frames: one contact sheet, or a PNG a frame in a folder.
public enum ThumbnailDestination: Sendable {
    case sheet(String, columns: Int)
    case folder(String)
}

extension FrameGenerator {
    /// The files `frames` go to at `destination`: the sheet, or `frame-N.png` in the folder.
    public func thumbnailPaths(of frames: [Int64], at destination: ThumbnailDestination) -> [String] {
        switch destination {
        case .sheet(let path, _): [path]
        case .folder(let folder): frames.map { URL(fileURLWithPath: folder).appendingPathComponent("frame-\($0).png").path }
        }
    }

    /// Writes `frames` to `destination`, scaled to fit `size` (nil: 320 pixels wide on a sheet,
    /// else the render size); `written` gets a line for each file (the sheet titled `title`).
    public func writeThumbnails(_ frames: [Int64], to destination: ThumbnailDestination, size: StillSize?, title: String,
                                written: (String) -> Void) throws {
        let renderSize = graph.videoComposition.renderSize
        let paths = thumbnailPaths(of: frames, at: destination)
        switch destination {
        case .sheet(let path, let columns):
            let size = (size ?? StillSize(width: 320, height: nil)).fitting(renderSize)
            let title = "\(title) · \(renderSize) · \(TimeNotation.clock(graph.duration)) · \(frames.count) frames"
            try PNGEncoder.write(try contactSheet(of: frames, size: size, columns: columns, title: title), to: path)
            written("\(path): \(frames.count) frames of \(size)")
        case .folder(let folder):
            let size = size?.fitting(renderSize) ?? renderSize
            do {
                try Folders.make(folder)
            } catch {
                throw MediaError(.writingFailed, path: folder, error.description)
            }
            for (n, path) in zip(frames, paths) {
                try PNGEncoder.write(try image(n, size: size), to: path)
                written("\(path)  \(caption(ofFrame: n))")
            }
        }
    }
}
