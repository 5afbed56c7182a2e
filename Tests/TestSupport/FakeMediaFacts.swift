import CompositionGraph
import Foundation
import MediaTime

/// Media facts without opening any file, the one fake `MediaFactsProvider` of the tests: each
/// path's facts come from a rule given when it is made (`promo`, `anyFile`, `noFiles`, `withTimecodes`).
public struct FakeMediaFacts: MediaFactsProvider {
    private let rule: @Sendable (String) throws(MediaFactsError) -> MediaFacts

    /// Facts by `rule`, which throws for a path that is missing or unreadable.
    public init(_ rule: @escaping @Sendable (String) throws(MediaFactsError) -> MediaFacts) {
        self.rule = rule
    }

    /// Facts by file name (the path's last component); files not named are missing, those in
    /// `unreadable` are not media.
    public init(byName files: [String: MediaFacts], unreadable: Set<String> = []) {
        self.init { path throws(MediaFactsError) in
            let name = URL(fileURLWithPath: path).lastPathComponent
            if unreadable.contains(name) { throw .unreadable(path: path, reason: "not a media file") }
            guard let facts = files[name] else { throw .missing(path: path) }
            return facts
        }
    }

    public func facts(forFileAt path: String, sequenceRate: Rational?) throws(MediaFactsError) -> MediaFacts {
        try rule(path)
    }

    /// The promo's media and the examples' and fixtures' others, by file name; `unreadable.mp4`
    /// is not media.
    public static let promo = FakeMediaFacts(byName: [
        "A.mp4": .fake(.video, size: PixelSize(width: 1920, height: 1080), duration: MediaTime(seconds: 12)),
        "B.mp4": .fake(.video, size: PixelSize(width: 1280, height: 720), duration: MediaTime(seconds: 12)),
        "logo.png": .fake(.image, size: PixelSize(width: 480, height: 160), hasAlpha: true),
        "music.mp3": .fake(.audio, duration: MediaTime(seconds: 22)),
        "star.svg": .fake(.svg, size: PixelSize(width: 100, height: 100)),
        "title-matte.svg": .fake(.svg, size: PixelSize(width: 640, height: 360)),
        "presenter.svg": .fake(.svg, size: PixelSize(width: 480, height: 640)),
        "silent.mp4": .fake(.video, size: PixelSize(width: 640, height: 360), duration: MediaTime(seconds: 5), hasAudio: false),
        "shot%04d.png": .fake(.video, size: PixelSize(width: 640, height: 360), duration: MediaTime(seconds: 2), hasAudio: false),
        "shot1001.png": .fake(.image, size: PixelSize(width: 640, height: 360)),
        "shot1040.png": .fake(.image, size: PixelSize(width: 640, height: 360)),
        "iris-map.png": .fake(.image, size: PixelSize(width: 320, height: 180)),
        "ripple-map.png": .fake(.image, size: PixelSize(width: 320, height: 180)),
    ], unreadable: ["unreadable.mp4"])

    /// Every file exists: a `.png` or `.jpg` is a 320x180 picture, an `.mp3` 12 seconds of sound,
    /// anything else a 12-second 320x180 clip with sound; except that a path with "missing" in it
    /// does not exist.
    public static let anyFile = FakeMediaFacts { path throws(MediaFactsError) in
        if path.contains("missing") { throw .missing(path: path) }
        let kind: MediaKind = switch URL(fileURLWithPath: path).pathExtension {
        case "png", "jpg": .image
        case "mp3": .audio
        default: .video
        }
        return .fake(kind, size: PixelSize(width: 320, height: 180), duration: MediaTime(seconds: 12))
    }

    /// No file exists.
    public static let noFiles = FakeMediaFacts { path throws(MediaFactsError) in throw .missing(path: path) }

    /// Only the files named in `present` exist (by file name), each a day-long video with sound
    /// at `rate`, with its start timecode if one is given: what an imported edit list finds.
    public static func withTimecodes(_ present: [String: String?], rate: Rational = Rational(24)) -> FakeMediaFacts {
        FakeMediaFacts { path throws(MediaFactsError) in
            guard let timecode = present[URL(fileURLWithPath: path).lastPathComponent] else { throw .missing(path: path) }
            var facts = MediaFacts.fake(.video, duration: MediaTime(seconds: 24 * 3600))
            facts.startTimecode = timecode
            facts.frameRate = rate
            return facts
        }
    }
}
