import CompositionGraph
import Foundation
import MediaTime

/// A picture of a clip for the timeline page: an image file's bytes and their MIME type
/// (`image/png`, `image/svg+xml`).
public struct Thumbnail: Hashable, Sendable {
    public var mimeType: String
    public var bytes: [UInt8]

    public init(mimeType: String, bytes: [UInt8]) {
        self.mimeType = mimeType
        self.bytes = bytes
    }

    /// `data:image/png;base64,…`, for an `src` attribute.
    var dataURI: String { "data:\(mimeType);base64," + Data(bytes).base64EncodedString() }
}

/// The compiled timeline of a project as one self-contained HTML page (`reel graph --html`):
/// header, time ruler, video instructions and transitions, every composition track with its
/// segments and thumbnails, audio volume and ducking curves, overlays, and the text listing.
/// No script, no network; the same graph, thumbnails and curves always give the same bytes.
public enum TimelinePage {
    /// The page for `graph`. `title` names the project (its file name); `thumbnail` gives the
    /// picture of a file at a source time (a clip's in-point, time zero for stills and overlay
    /// images), or nil to show the box without one. `ducking` gives the ducking gain of ducked
    /// tracks by track ID (it follows the rendered sound, so the caller measures it), drawn
    /// over their volume curves.
    public static func html(for graph: CompositionGraph, title: String, ducking: [Int: Animation] = [:],
                            thumbnail: (MediaReference, MediaTime) -> Thumbnail?) -> String {
        withoutActuallyEscaping(thumbnail) { thumbnail in
            var page = PageWriter(graph: graph, ducking: ducking, thumbnail: thumbnail)
            page.writeDocument(title: title)
            return page.html
        }
    }
}
