import CompositionGraph
import MediaTime

// Builders shared by the tests that write composition graphs by hand.

/// `n/d` seconds.
public func seconds(_ n: Int64, _ d: Int64 = 1) -> MediaTime { MediaTime(n, d) }

/// `[start, end)`.
public func range(_ start: MediaTime, _ end: MediaTime) -> TimeRange { TimeRange(start: start, end: end) }

extension MediaFacts {
    /// Facts written by hand, for files that are never opened (or are opened by fakes): a
    /// picture of `size` unless it is audio, `duration` and stereo sound unless it is a still.
    public static func fake(_ kind: MediaKind, size: PixelSize = PixelSize(width: 1920, height: 1080),
                            duration: MediaTime = MediaTime(seconds: 60), hasAudio: Bool = true, hasAlpha: Bool = false) -> MediaFacts {
        let still = kind == .image || kind == .svg
        return MediaFacts(kind: kind, naturalSize: kind == .audio ? nil : size, hasAlpha: hasAlpha || kind == .svg,
                          duration: still ? nil : duration, frameRate: kind == .video ? Rational(30) : nil,
                          audio: still || !hasAudio ? nil : AudioFacts(sampleRate: 48000, channels: 2, layout: "stereo"),
                          stamp: FileStamp(size: 0, modified: 0))
    }
}

extension MediaReference {
    /// A reference with `MediaFacts.fake` facts.
    public static func fake(_ name: String, path: String, kind: MediaKind, size: PixelSize = PixelSize(width: 1920, height: 1080),
                            hasAlpha: Bool = false) -> MediaReference {
        MediaReference(name: name, path: path, facts: .fake(kind, size: size, hasAlpha: hasAlpha))
    }
}

extension OutputSettings {
    /// H.264 crf 23 veryfast + AAC 128 kb/s 48 kHz stereo in MP4.
    public static let test = OutputSettings(
        path: nil, container: .mp4,
        video: .init(codec: .h264, crf: 23, bitrate: nil, preset: "veryfast", pixelFormat: "yuv420p"),
        audio: .init(codec: .aac, bitrate: 128_000, sampleRate: 48000, channels: 2),
        faststart: false, metadata: [:])
}
