import CompositionGraph
import MediaTime

/// What the compiler needs to know about a media file (AVAsset's properties).
public struct MediaFacts: Sendable, Hashable {
    /// nil for still images (they last forever).
    public var duration: MediaTime?
    /// Display size after rotation; nil when there is no picture.
    public var videoSize: PixelSize?
    public var hasVideo: Bool
    public var hasAudio: Bool

    public init(duration: MediaTime?, videoSize: PixelSize?, hasVideo: Bool, hasAudio: Bool) {
        self.duration = duration
        self.videoSize = videoSize
        self.hasVideo = hasVideo
        self.hasAudio = hasAudio
    }
}

public enum MediaFactsError: Error, Sendable {
    /// No file at the path (exit code 66).
    case missing(path: String)
    /// A file that cannot be read as media, with the reader's explanation.
    case unreadable(path: String, reason: String)
}

/// Supplies media facts: the FFmpeg-backed probe in the command line, a fake in tests.
public protocol MediaFactsProvider: Sendable {
    func facts(for reference: MediaReference) throws(MediaFactsError) -> MediaFacts
}

/// Resolves a font family to the file that will draw it (fontconfig in the command line),
/// with the project's own font files registered first.
public protocol FontResolver {
    /// Registers the project's font files; returns a problem for each file that cannot be used.
    mutating func register(fontFiles: [String]) -> [(file: String, problem: String)]
    /// The font file for the family, or the families that are available.
    func resolve(family: String, weight: Int, italic: Bool) -> FontResolution
}

public enum FontResolution: Sendable {
    case file(String)
    case unavailable(available: [String])
}
