import MediaTime

/// What a media file is, as far as the kind of media it holds goes.
public enum MediaKind: String, Hashable, Sendable, Codable {
    /// Moving pictures, with or without sound.
    case video
    /// Sound only.
    case audio
    /// A still raster picture (PNG, JPEG, WebP…).
    case image
    /// A vector picture, drawn at the size it is shown at.
    case svg

    /// `a video`, `an audio`, `an image`, `an SVG`: for messages.
    public var withArticle: String {
        switch self {
        case .video: "a video"
        case .audio: "an audio"
        case .image: "an image"
        case .svg: "an SVG"
        }
    }
}

/// What the front end learnt about a media file by reading it once, carried by every
/// reference to the file so the back end renders from the same facts (AVAsset's tracks
/// with their `naturalSize`, `preferredTransform` and `timeRange`).
public struct MediaFacts: Hashable, Sendable, Codable {
    /// Decided from the file's streams, never from its name.
    public var kind: MediaKind
    /// The upright picture's size in pixels (rotation applied); nil without a picture. For an
    /// SVG, its intrinsic size.
    public var naturalSize: PixelSize?
    /// The picture has an alpha channel.
    public var hasAlpha: Bool
    /// How long the file plays; nil for stills, which last as long as they are shown.
    public var duration: MediaTime?
    /// The video's average frame rate, when it has one.
    public var frameRate: Rational?
    /// The audio the file holds, if any.
    public var audio: AudioFacts?
    /// The start timecode a camera or editor wrote (`01:00:00:00`), if any.
    public var startTimecode: String?
    /// The file as it was read, so a render can tell that it changed since.
    public var stamp: FileStamp

    public init(kind: MediaKind, naturalSize: PixelSize?, hasAlpha: Bool = false, duration: MediaTime?, frameRate: Rational? = nil,
                audio: AudioFacts?, startTimecode: String? = nil, stamp: FileStamp) {
        self.kind = kind
        self.naturalSize = naturalSize
        self.hasAlpha = hasAlpha
        self.duration = duration
        self.frameRate = frameRate
        self.audio = audio
        self.startTimecode = startTimecode
        self.stamp = stamp
    }

    public var hasPicture: Bool { naturalSize != nil }
    public var hasAudio: Bool { audio != nil }
}

/// The sound of a media file: its own rate and channels (the mix resamples them).
public struct AudioFacts: Hashable, Sendable, Codable {
    public var sampleRate: Int
    public var channels: Int
    /// FFmpeg's description of the layout: `stereo`, `5.1(side)`, `mono`…
    public var layout: String
    /// Why the sound cannot be decoded, when decoding its start failed (nil: it decodes). A
    /// clip that plays it is an error; one that mutes it shows the picture alone.
    public var undecodable: String?

    public init(sampleRate: Int, channels: Int, layout: String, undecodable: String? = nil) {
        self.sampleRate = sampleRate
        self.channels = channels
        self.layout = layout
        self.undecodable = undecodable
    }
}

/// A file's size and modification time: enough to notice that it was replaced or edited.
public struct FileStamp: Hashable, Sendable, Codable, CustomStringConvertible {
    public var size: Int64
    /// Nanoseconds since 1970.
    public var modified: Int64

    public init(size: Int64, modified: Int64) {
        self.size = size
        self.modified = modified
    }

    public var description: String { "\(size) bytes, modified at \(modified) ns" }
}

/// Why facts could not be learnt.
public enum MediaFactsError: Error, Sendable, Equatable {
    /// No file at the path.
    case missing(path: String)
    /// A file that cannot be read as media, with the reader's explanation.
    case unreadable(path: String, reason: String)
}

/// Learns the facts of media files: the FFmpeg- and Cairo-backed reader of the render engine
/// in the command line, a fake in tests.
public protocol MediaFactsProvider: Sendable {
    /// The facts of the file at `path`; an image sequence (`shots/f%04d.png`) as read at
    /// `sequenceRate` (nil: 25 fps), which other files ignore.
    func facts(forFileAt path: String, sequenceRate: Rational?) throws(MediaFactsError) -> MediaFacts
}

extension MediaFactsProvider {
    /// The facts of the file at `path`; an image sequence at 25 fps.
    public func facts(forFileAt path: String) throws(MediaFactsError) -> MediaFacts {
        try facts(forFileAt: path, sequenceRate: nil)
    }
}
